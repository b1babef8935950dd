import { expect } from 'vitest';
import type { SqlDialect } from '../../src/dialect/sql-dialect.js';
import { type RaceOutcome, verifyRace } from './guard-race.js';
import { readFinalRows, readRaceLog } from './race-log.js';

/**
 * The verdict on a guard race: it exercised both sides of the guard (or it proves nothing), every
 * committed change obeyed the guard against the row it replaced, and no reported write went missing.
 */
export async function expectRaceObeyedGuard(
  outcomes: readonly RaceOutcome[],
  dialect: SqlDialect,
): Promise<void> {
  expect(outcomes.some((o) => o.written)).toBe(true);
  expect(outcomes.some((o) => !o.written)).toBe(true);
  const log = await readRaceLog(dialect);
  expect(verifyRace(outcomes, log, await readFinalRows(dialect))).toEqual([]);
  expect(log.length).toBe(outcomes.filter((o) => o.written).length);
}
