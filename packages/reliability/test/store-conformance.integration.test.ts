import { ManualClock } from '@nimbus/core';
import {
  describeInboxStoreConformance,
  describeOutboxStoreConformance,
} from '@nimbus/reliability/conformance';
import {
  createTemporaryDatabase,
  shouldRunPostgresSuite,
  type TemporaryDatabase,
} from '@nimbus/testing/postgres';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import { createPostgresInboxStore, createPostgresOutboxStore } from '../src/index.js';

const runPg = await shouldRunPostgresSuite('reliability store conformance [postgres]');

describe.runIf(runPg)('reliability stores on PostgreSQL', () => {
  let database: TemporaryDatabase;
  let pool: pg.Pool;
  let kysely: Kysely<unknown>;
  let n = 0;

  beforeAll(async () => {
    database = await createTemporaryDatabase('nimbus_reliability');
    pool = new pg.Pool({ connectionString: database.url, max: 4 });
    kysely = new Kysely({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url, max: 2 }) }),
    });
  });
  afterAll(async () => {
    await kysely?.destroy();
    await pool?.end();
    await database?.drop();
  });

  describeInboxStoreConformance('postgres', async () => {
    const clock = new ManualClock();
    const tableName = `inbox_${++n}`;
    return {
      store: createPostgresInboxStore(pool, { clock, tableName }),
      clock,
      cleanup: async () =>
        void (await pool.query(`drop table if exists ${tableName}, ${tableName}_migrations`)),
    };
  });

  describeOutboxStoreConformance('postgres', async () => {
    const clock = new ManualClock();
    const tableName = `outbox_${++n}`;
    const store = createPostgresOutboxStore(pool, { clock, tableName });
    await store.ensureTableExists();
    return {
      store,
      clock,
      sql: { connection: pool, dialect: 'postgres' },
      async inTransaction(outcome, fn) {
        // A Kysely transaction on one side, the store's pool on the other: the write must join the former.
        await kysely
          .transaction()
          .execute(async (trx) => {
            await fn(trx);
            if (outcome === 'rollback') throw new RollbackSignal();
          })
          .catch((error) => {
            if (!(error instanceof RollbackSignal)) throw error;
          });
      },
      cleanup: async () =>
        void (await pool.query(
          `drop table if exists ${tableName}, ${tableName}_migrations, legacy_outbox, legacy_outbox_migrations`,
        )),
    };
  });
});

class RollbackSignal extends Error {}
