import { describe, expect, it } from 'vitest';
import { parseRetentionOptions, UNRESOLVED_RETENTION_ENV } from '../src/index.js';

describe('parseRetentionOptions', () => {
  it('defaults to unlimited (-1)', () => {
    expect(parseRetentionOptions()).toEqual({ unresolvedRetentionDays: -1 });
    expect(parseRetentionOptions({ env: { [UNRESOLVED_RETENTION_ENV]: '' } })).toEqual({
      unresolvedRetentionDays: -1,
    });
  });

  it('reads whole days from the environment', () => {
    expect(
      parseRetentionOptions({ env: { [UNRESOLVED_RETENTION_ENV]: ' 180 ' } }).unresolvedRetentionDays,
    ).toBe(180);
    expect(parseRetentionOptions({ env: { [UNRESOLVED_RETENTION_ENV]: '-1' } }).unresolvedRetentionDays).toBe(
      -1,
    );
  });

  it('code options are applied after the environment and win', () => {
    const env = { [UNRESOLVED_RETENTION_ENV]: '30' };
    expect(
      parseRetentionOptions({ env, options: { unresolvedRetentionDays: 365 } }).unresolvedRetentionDays,
    ).toBe(365);
  });

  it.each(['0', '366', '1.5', 'abc', '-2'])(
    'rejects %j from the environment naming option and value',
    (value) => {
      expect(() => parseRetentionOptions({ env: { [UNRESOLVED_RETENTION_ENV]: value } })).toThrow(
        expect.objectContaining({
          code: 'InvalidOption',
          option: 'unresolvedRetentionDays',
          value,
          message: expect.stringContaining(`"${value}"`),
        }),
      );
    },
  );

  it.each([0, 366, 2.5, -5, Number.NaN])('rejects %s from code', (value) => {
    expect(() => parseRetentionOptions({ options: { unresolvedRetentionDays: value } })).toThrow(
      /unresolvedRetentionDays/,
    );
  });

  it.each([
    [Number.NaN, /unresolvedRetentionDays NaN/],
    [Number.POSITIVE_INFINITY, /unresolvedRetentionDays Infinity/],
    [Number.NEGATIVE_INFINITY, /unresolvedRetentionDays -Infinity/],
  ])('names %s in the error, not null', (value, message) => {
    expect(() => parseRetentionOptions({ options: { unresolvedRetentionDays: value } })).toThrow(message);
  });

  it('an invalid environment value fails even when code would override it', () => {
    expect(() =>
      parseRetentionOptions({
        env: { [UNRESOLVED_RETENTION_ENV]: '0' },
        options: { unresolvedRetentionDays: 30 },
      }),
    ).toThrow(/NIMBUS_STORE_UNRESOLVED_RETENTION_DAYS/);
  });
});
