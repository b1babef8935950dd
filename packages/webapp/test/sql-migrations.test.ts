import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSqliteDatabase, sqlExecutorOf } from '@nimbus/sql';
import { afterAll, describe } from 'vitest';
import type { WebAppTableSet } from '../src/index.js';
import { webAppMigrationCases } from './support/webapp-migration-cases.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-webapp-migrations-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let n = 0;

describe('WebApp tables under the migration journal (SQLite: one file per set)', () => {
  webAppMigrationCases(async () => {
    const run = n++;
    const filename = (set: WebAppTableSet) => path.join(dir, `${run}-${set}.db`);
    const withDb = async <T>(
      set: WebAppTableSet,
      work: (db: ReturnType<typeof openSqliteDatabase>) => Promise<T>,
    ) => {
      const db = openSqliteDatabase(filename(set));
      try {
        return await work(db);
      } finally {
        db.close();
      }
    };
    return {
      dialect: 'sqlite',
      schema: null,
      database: (set) => ({ dialect: 'sqlite', filename: filename(set) }),
      sql: (set, work) => withDb(set, (db) => work(sqlExecutorOf(db, 'sqlite'))),
      tableExists: (set, table) =>
        withDb(set, async (db) =>
          Boolean(db.prepare("select 1 from sqlite_master where type = 'table' and name = ?").get(table)),
        ),
    };
  });
});
