import { openPostgresPool, sqlExecutorOf } from '@nimbus/sql';
import {
  createTemporaryDatabase,
  shouldRunPostgresSuite,
  type TemporaryDatabase,
} from '@nimbus/testing/postgres';
import type pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import { webAppMigrationCases } from './support/webapp-migration-cases.js';

const runPg = await shouldRunPostgresSuite('WebApp table migrations (PostgreSQL)');

describe.runIf(runPg)(
  'WebApp tables under the migration journal (PostgreSQL: one schema for all sets)',
  () => {
    let database: TemporaryDatabase;
    let pool: pg.Pool;
    let n = 0;
    beforeAll(async () => {
      database = await createTemporaryDatabase('nimbus_webapp_migrations');
      pool = openPostgresPool({ connectionString: database.url, max: 2 });
    });
    afterAll(async () => {
      await pool?.end();
      await database?.drop();
    });

    webAppMigrationCases(async () => {
      const schema = `webapp_${n++}`;
      return {
        dialect: 'postgres',
        schema,
        database: () => ({ dialect: 'postgres', connectionString: database.url, schema }),
        sql: (_, work) => work(sqlExecutorOf(pool, 'postgres')),
        tableExists: async (_, table) =>
          (
            await pool.query(
              'select 1 from information_schema.tables where table_schema = $1 and table_name = $2',
              [schema, table],
            )
          ).rows.length > 0,
      };
    });
  },
);
