import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '@nimbus/core';
import type { ConformanceSetup, StoreUnderTest } from '@nimbus/message-store/conformance';
import { createSqlMessageStore, type SqlMessageStore } from '../../src/index.js';

/** A fresh SQLite store in its own temp directory, deleted afterwards. */
export async function sqliteStoreUnderTest(
  setup: ConformanceSetup,
): Promise<StoreUnderTest<SqlMessageStore>> {
  const dir = mkdtempSync(join(tmpdir(), 'nimbus-sql-store-'));
  const store = await createSqlMessageStore({
    dialect: 'sqlite',
    filename: join(dir, 'store.db'),
    clock: setup.clock,
    retention: setup.retention,
    retentionSweep: false,
    logger: silentLogger,
    env: {},
  });
  return {
    store,
    async cleanup() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A store in a fresh schema of the given PostgreSQL database (the suite drops the database). */
export function postgresStoreUnderTest(url: () => string) {
  return async (setup: ConformanceSetup): Promise<StoreUnderTest<SqlMessageStore>> => {
    const store = await createSqlMessageStore({
      dialect: 'postgres',
      connectionString: url(),
      schema: `ct_${randomBytes(5).toString('hex')}`,
      poolSize: 4,
      clock: setup.clock,
      retention: setup.retention,
      retentionSweep: false,
      logger: silentLogger,
      env: {},
    });
    return { store, cleanup: () => store.close() };
  };
}
