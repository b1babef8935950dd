import { ManualClock, MessageType } from '@nimbus/core';
import {
  ALL_RESOLUTION_STATUSES,
  DEFAULT_RETENTION,
  ResolutionStatus,
  type StatusWrite,
} from '@nimbus/message-store';
import { CONTROL_REQUEST_TYPES, decideStatusWrite } from '@nimbus/message-store/provider';
import {
  createTemporaryDatabase,
  shouldRunPostgresSuite,
  type TemporaryDatabase,
} from '@nimbus/testing/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlMessageStore } from '../src/index.js';
import { postgresStoreUnderTest, sqliteStoreUnderTest } from './support/sql-store-factories.js';

/**
 * The SQL form of the stale-write guard (evaluated by the database inside the upsert) must decide exactly
 * as `decideStatusWrite` for every combination of stored row and incoming write: one batch seeds a row per
 * combination, a second batch writes the incoming row onto each, and every answer is compared.
 */
async function checkEveryCombination(store: SqlMessageStore): Promise<void> {
  const clock = new ManualClock(Date.UTC(2026, 6, 10));
  const types = Object.values(MessageType);
  const row = (messageType: MessageType, extra: { parentMessageId?: string; lastMessageId?: string }) => ({
    enqueuedTimeUtc: new Date(clock.now()),
    messageType,
    ...extra,
  });
  const seeds: StatusWrite[] = [];
  const incoming: StatusWrite[] = [];
  const expected: boolean[] = [];
  let n = 0;
  for (const storedStatus of ALL_RESOLUTION_STATUSES) {
    for (const storedType of types) {
      for (const incomingType of types) {
        for (const ownParent of CONTROL_REQUEST_TYPES.has(incomingType) ? [true, false] : [false]) {
          for (const status of [
            ResolutionStatus.Pending,
            ResolutionStatus.Deferred,
            ResolutionStatus.Failed,
          ]) {
            const key = { endpointId: 'guard', eventId: `g${n++}`, sessionId: 's' };
            const parentMessageId = ownParent ? 'incoming-id' : 'other-id';
            seeds.push({ key, status: storedStatus, content: row(storedType, { parentMessageId }) });
            incoming.push({ key, status, content: row(incomingType, { lastMessageId: 'incoming-id' }) });
            expected.push(
              decideStatusWrite(
                { resolutionStatus: storedStatus, messageType: storedType, parentMessageId },
                { resolutionStatus: status, messageType: incomingType, lastMessageId: 'incoming-id' },
              ) === 'write',
            );
          }
        }
      }
    }
  }
  expect(new Set(await store.writeStatuses(seeds))).toEqual(new Set([true]));
  const answered = await store.writeStatuses(incoming);
  const mismatches = incoming
    .map((w, i) => ({ seed: seeds[i]!, incoming: w, expected: expected[i], answered: answered[i] }))
    .filter((m) => m.expected !== m.answered)
    .map(
      (m) =>
        `${m.seed.status}/${m.seed.content.messageType}/${m.seed.content.parentMessageId} <- ` +
        `${m.incoming.status}/${m.incoming.content.messageType}: expected ${m.expected}`,
    );
  expect(mismatches).toEqual([]);
  expect(answered.filter((a) => !a).length).toBeGreaterThan(0);
}

const runPg = await shouldRunPostgresSuite('SQL guard equivalence (PostgreSQL)');
const setup = () => ({ clock: new ManualClock(), retention: DEFAULT_RETENTION });

describe('the SQL stale-write guard equals decideStatusWrite', () => {
  it('on SQLite', async () => {
    const { store, cleanup } = await sqliteStoreUnderTest(setup());
    try {
      await checkEveryCombination(store);
    } finally {
      await cleanup();
    }
  });

  describe.runIf(runPg)('on PostgreSQL', () => {
    let database: TemporaryDatabase;
    beforeAll(async () => {
      database = await createTemporaryDatabase('nimbus_guard_equivalence');
    });
    afterAll(async () => {
      await database?.drop();
    });
    it('every combination', async () => {
      const { store, cleanup } = await postgresStoreUnderTest(() => database.url)(setup());
      try {
        await checkEveryCombination(store);
      } finally {
        await cleanup();
      }
    });
  });
});
