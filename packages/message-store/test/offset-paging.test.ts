import { describe, expect, it } from 'vitest';
import { InvalidStoreArgumentError } from '../src/index.js';
import { offsetPageOf, offsetPageRequest, PaginationLimits, sliceOffsetPage } from '../src/provider.js';

describe('offset paging', () => {
  it('starts at 0 without a token and resolves the size through PaginationLimits', () => {
    expect(offsetPageRequest(null, 0)).toEqual({ offset: 0, size: PaginationLimits.defaultPageSize });
    expect(offsetPageRequest('', 5_000)).toEqual({ offset: 0, size: PaginationLimits.maxPageSize });
    expect(offsetPageRequest('40', 20)).toEqual({ offset: 40, size: 20 });
  });

  it('rejects tokens it could not have issued', () => {
    for (const token of ['-1', 'abc', '1.5', '1234567890123456']) {
      expect(() => offsetPageRequest(token, 10)).toThrow(InvalidStoreArgumentError);
    }
  });

  it('pages a list and ends with a null token', () => {
    const all = [1, 2, 3, 4, 5];
    const first = sliceOffsetPage(all, offsetPageRequest(null, 2));
    expect(first).toEqual({ rows: [1, 2], continuationToken: '2' });
    const second = sliceOffsetPage(all, offsetPageRequest(first.continuationToken, 2));
    expect(second).toEqual({ rows: [3, 4], continuationToken: '4' });
    const last = sliceOffsetPage(all, offsetPageRequest(second.continuationToken, 2));
    expect(last).toEqual({ rows: [5], continuationToken: null });
  });

  it('reads the extra row of a limit size + 1 query as "another page follows"', () => {
    expect(offsetPageOf(['a', 'b', 'c'], { offset: 10, size: 2 })).toEqual({
      rows: ['a', 'b'],
      continuationToken: '12',
    });
    expect(offsetPageOf(['a', 'b'], { offset: 10, size: 2 })).toEqual({
      rows: ['a', 'b'],
      continuationToken: null,
    });
  });
});
