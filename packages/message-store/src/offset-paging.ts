import { InvalidStoreArgumentError } from './errors.js';
import { PaginationLimits } from './pagination.js';

/*
 * Offset-paged searches: the continuation token is the decimal offset of the next page. Every provider
 * pages this way, so a token means the same thing whichever store issued it.
 */

/** Where a page starts and how many rows it holds at most. */
export interface OffsetPageRequest {
  readonly offset: number;
  readonly size: number;
}

export interface OffsetPage<T> {
  readonly rows: T[];
  /** null on the last page. */
  readonly continuationToken: string | null;
}

export function decodeOffsetToken(token: string | null | undefined): number {
  if (token == null || token === '') return 0;
  if (!/^\d{1,15}$/.test(token)) {
    throw new InvalidStoreArgumentError('continuationToken', `'${token}' is not a token this store issued`);
  }
  return Number(token);
}

export function nextOffsetToken(offset: number, pageLength: number, total: number): string | null {
  return offset + pageLength < total ? String(offset + pageLength) : null;
}

/** The page a search asks for: its token decoded, its size resolved by `PaginationLimits`. */
export function offsetPageRequest(
  continuationToken: string | null | undefined,
  requestedSize: number,
): OffsetPageRequest {
  return { offset: decodeOffsetToken(continuationToken), size: PaginationLimits.resolve(requestedSize) };
}

/**
 * The page from rows read at `request.offset` with one row more than the page holds (a query with
 * `limit size + 1`): the extra row only tells that another page follows.
 */
export function offsetPageOf<T>(rowsWithOneExtra: readonly T[], request: OffsetPageRequest): OffsetPage<T> {
  return rowsWithOneExtra.length > request.size
    ? {
        rows: rowsWithOneExtra.slice(0, request.size),
        continuationToken: String(request.offset + request.size),
      }
    : { rows: [...rowsWithOneExtra], continuationToken: null };
}

/** The requested page of a list that is already filtered and ordered. */
export function sliceOffsetPage<T>(ordered: readonly T[], request: OffsetPageRequest): OffsetPage<T> {
  return offsetPageOf(ordered.slice(request.offset, request.offset + request.size + 1), request);
}
