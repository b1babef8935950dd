import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '@nimbus/core';
import type { ConformanceSetup, StoreUnderTest } from '@nimbus/message-store/conformance';
import pg from 'pg';
import { createSqlMessageStore, type SqlMessageStore } from '../../src/index.js';
import { STORE_TABLES } from '../../src/schema/database.js';

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

/**
 * A store on one schema of the given PostgreSQL database (the suite drops the database). The schema is
 * migrated once; every later store starts from emptied tables, so retention sweeps only see its own rows.
 */
export function postgresStoreUnderTest(url: () => string) {
  const schema = `ct_${randomBytes(5).toString('hex')}`;
  let migrated = false;
  return async (setup: ConformanceSetup): Promise<StoreUnderTest<SqlMessageStore>> => {
    if (migrated) await truncateStoreTables(url(), schema);
    const store = await createSqlMessageStore({
      dialect: 'postgres',
      connectionString: url(),
      schema,
      migrationMode: migrated ? 'VerifyOnly' : 'AutoApply',
      poolSize: 4,
      clock: setup.clock,
      retention: setup.retention,
      retentionSweep: false,
      logger: silentLogger,
      env: {},
    });
    migrated = true;
    return { store, cleanup: () => store.close() };
  };
}

async function truncateStoreTables(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // DELETE beats TRUNCATE on tables this small (no exclusive locks, no file rewrites).
    const tables = STORE_TABLES.filter((t) => t !== 'schema_migrations');
    await client.query(tables.map((t) => `delete from "${schema}"."${t}";`).join(' '));
  } finally {
    await client.end();
  }
}
