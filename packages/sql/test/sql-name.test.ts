import { describe, expect, it } from 'vitest';
import { isSqlName, MAX_SQL_NAME_LENGTH, quotePostgresIdentifier, sqlName } from '../src/index.js';

describe('the one SQL identifier rule', () => {
  it('accepts plain identifiers up to 46 characters: 63 (PostgreSQL) minus the longest suffix appended', () => {
    expect(MAX_SQL_NAME_LENGTH).toBe(63 - '_endpoint_created'.length);
    const longest = `a${'b'.repeat(MAX_SQL_NAME_LENGTH - 1)}`;
    expect(sqlName(longest, 'schema')).toBe(longest);
    // Every name the product derives from an accepted one still fits PostgreSQL's 63 bytes.
    for (const derived of [
      `${longest}_endpoint_created`,
      `nimbus_state_${longest}`,
      `${longest}_migrations`,
      `${longest}_pending`,
      `${longest}_wakeup`,
    ])
      expect(derived.length).toBeLessThanOrEqual(63);
    expect(isSqlName('_x9')).toBe(true);
  });

  it('refuses anything else with InvalidOption naming the option', () => {
    for (const bad of ['', '9lives', 'has space', 'semi;colon', 'quo"te', 'dash-ed', 'a'.repeat(47)]) {
      expect(isSqlName(bad)).toBe(false);
      expect(() => sqlName(bad, "Store option 'schema'")).toThrow(
        expect.objectContaining({
          code: 'InvalidOption',
          message: expect.stringContaining("Store option 'schema'"),
        }),
      );
    }
    expect(() => quotePostgresIdentifier('a'.repeat(47))).toThrow(
      expect.objectContaining({ code: 'InvalidOption' }),
    );
    expect(quotePostgresIdentifier('nimbus')).toBe('"nimbus"');
  });
});
