import {
  createTemporaryDatabase,
  shouldRunPostgresSuite,
  type TemporaryDatabase,
} from '@nimbus/testing/postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import { reliabilityMigrationCases } from './support/reliability-migration-cases.js';

const runPg = await shouldRunPostgresSuite('outbox/inbox migrations (PostgreSQL)');

describe.runIf(runPg)('outbox and inbox tables under the migration journal (PostgreSQL)', () => {
  let database: TemporaryDatabase;
  let pool: pg.Pool;
  let n = 0;
  beforeAll(async () => {
    database = await createTemporaryDatabase('nimbus_reliability_migrations');
    pool = new pg.Pool({ connectionString: database.url, max: 4 });
  });
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });

  reliabilityMigrationCases(async () => {
    const schema = `reliability_${n++}`;
    await pool.query(`create schema "${schema}"`);
    const names = async (sql: string, params: string[]) =>
      (await pool.query<{ name: string }>(sql, params)).rows.map((r) => r.name);
    return {
      connection: pool,
      dialect: 'postgres',
      schema,
      indexes: (table) =>
        names(
          'select indexname as name from pg_indexes where schemaname = $1 and tablename = $2 order by 1',
          [schema, table],
        ),
      tables: () =>
        names('select table_name as name from information_schema.tables where table_schema = $1 order by 1', [
          schema,
        ]),
    };
  });
});
