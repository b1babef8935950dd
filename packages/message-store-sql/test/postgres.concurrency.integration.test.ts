import { randomBytes } from 'node:crypto';
import { MessageType, silentLogger } from '@nimbus/core';
import { ResolutionStatus } from '@nimbus/message-store';
import {
  createTemporaryDatabase,
  shouldRunPostgresSuite,
  type TemporaryDatabase,
} from '@nimbus/testing/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConnectionSettings } from '../src/config/resolve-connection-settings.js';
import { openDialect } from '../src/dialect/open-dialect.js';
import { createSqlMessageStore, type SqlMessageStore } from '../src/index.js';
import { runMigrations } from '../src/migrations/migrator.js';
import { expectRaceObeyedGuard } from './support/expect-race-obeyed-guard.js';
import { planRace, type RaceOutcome, uploadFor } from './support/guard-race.js';
import { installRaceLog } from './support/race-log.js';

const runPg = await shouldRunPostgresSuite('message-store-sql concurrency (PostgreSQL)');

describe.runIf(runPg)('PostgreSQL guarded status writes under a racing pool', () => {
  let database: TemporaryDatabase;
  beforeAll(async () => {
    database = await createTemporaryDatabase('nimbus_store_race');
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('every committed change obeys the guard against the row it replaced, and no update is lost', {
    timeout: 120_000,
  }, async () => {
    const schema = `race_${randomBytes(4).toString('hex')}`;
    const dialect = openDialect(
      resolveConnectionSettings({ dialect: 'postgres', connectionString: database.url, schema, env: {} }),
    );
    const stores: SqlMessageStore[] = [];
    try {
      await runMigrations(dialect, { mode: 'AutoApply' });
      await installRaceLog(dialect, `"${schema}"."unresolved_events"`);
      // Two stores (two pools), as two application instances would be.
      for (let i = 0; i < 2; i++) {
        stores.push(
          await createSqlMessageStore({
            dialect: 'postgres',
            connectionString: database.url,
            schema,
            poolSize: 6,
            migrationMode: 'VerifyOnly',
            retentionSweep: false,
            logger: silentLogger,
            env: {},
          }),
        );
      }
      const plan = planRace(424242, 12, 25, 3, 'race');
      const outcomes = (
        await Promise.all(
          plan.map(async (writes, w) => {
            const store = stores[w % stores.length]!;
            const done: RaceOutcome[] = [];
            for (const write of writes)
              done.push({ ...write, written: await uploadFor(store, write, 'race-ep') });
            return done;
          }),
        )
      ).flat();

      expect(outcomes).toHaveLength(12 * 25);
      await expectRaceObeyedGuard(outcomes, dialect);
    } finally {
      for (const store of stores) await store.close();
      await dialect.destroy();
    }
  });

  it('of many concurrent tryCompletePendingMessage calls on one row exactly one wins', async () => {
    const schema = `reconcile_${randomBytes(4).toString('hex')}`;
    const open = () =>
      createSqlMessageStore({
        dialect: 'postgres',
        connectionString: database.url,
        schema,
        poolSize: 8,
        retentionSweep: false,
        logger: silentLogger,
        env: {},
      });
    const a = await open();
    const b = await open();
    try {
      const row = {
        enqueuedTimeUtc: new Date(),
        messageType: MessageType.EventRequest,
        lastMessageId: 'm-1',
      };
      for (let round = 0; round < 5; round++) {
        const eventId = `e-${round}`;
        expect(
          await a.writeStatus({
            key: { endpointId: 'ep', eventId: eventId, sessionId: 's1' },
            status: ResolutionStatus.Pending,
            content: row,
          }),
        ).toBe(true);
        const results = await Promise.all(
          Array.from({ length: 16 }, (_, i) =>
            (i % 2 === 0 ? a : b).tryCompletePending({
              key: { endpointId: 'ep', eventId: eventId, sessionId: 's1' },
              expectedLastMessageId: 'm-1',
              content: {
                ...row,
                messageType: MessageType.Unknown,
                reason: `caller-${i}`,
              },
            }),
          ),
        );
        expect(results.filter(Boolean)).toHaveLength(1);
        const stored = await a.getEvent({ endpointId: 'ep', eventId });
        expect(stored?.resolutionStatus).toBe('Completed');
        expect(stored?.reason).toBe(`caller-${results.indexOf(true)}`);
      }
    } finally {
      await a.close();
      await b.close();
    }
  });
});
