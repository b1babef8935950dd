import { ManualClock } from '@nimbus/core';
import {
  describeInboxStoreConformance,
  describeOutboxStoreConformance,
} from '@nimbus/reliability/conformance';
import type BetterSqlite3 from 'better-sqlite3';
import {
  createSqliteInboxStore,
  createSqliteOutboxStore,
  MemoryInboxStore,
  MemoryOutboxStore,
} from '../src/index.js';
import { tempSqlite } from './sqlite-fixture.js';

describeInboxStoreConformance('memory', async () => {
  const clock = new ManualClock();
  return { store: new MemoryInboxStore({ clock }), clock, cleanup: async () => undefined };
});

describeInboxStoreConformance('sqlite', async () => {
  const clock = new ManualClock();
  const sqlite = tempSqlite();
  return { store: createSqliteInboxStore(sqlite.db, { clock }), clock, cleanup: async () => sqlite.close() };
});

describeOutboxStoreConformance('memory', async () => {
  const clock = new ManualClock();
  return { store: new MemoryOutboxStore({ clock }), clock, cleanup: async () => undefined };
});

describeOutboxStoreConformance('sqlite', async () => {
  const clock = new ManualClock();
  const sqlite = tempSqlite();
  const store = createSqliteOutboxStore(sqlite.db, { clock });
  await store.ensureTableExists();
  return {
    store,
    clock,
    sql: { connection: sqlite.db, dialect: 'sqlite' },
    async inTransaction(outcome, fn) {
      const db: BetterSqlite3.Database = sqlite.db;
      db.exec('begin');
      await fn(db);
      db.exec(outcome === 'commit' ? 'commit' : 'rollback');
    },
    cleanup: async () => sqlite.close(),
  };
});
