import type Database from 'better-sqlite3';
import { afterEach, describe } from 'vitest';
import { tempSqlite } from './sqlite-fixture.js';
import { reliabilityMigrationCases } from './support/reliability-migration-cases.js';

const open: { close(): void }[] = [];
afterEach(() => {
  for (const sqlite of open.splice(0)) sqlite.close();
});

describe('outbox and inbox tables under the migration journal (SQLite)', () => {
  reliabilityMigrationCases(async () => {
    const sqlite = tempSqlite();
    open.push(sqlite);
    const db: Database.Database = sqlite.db;
    const names = (sql: string, ...params: string[]) =>
      (db.prepare(sql).all(...params) as { name: string }[]).map((r) => r.name);
    return {
      connection: db,
      dialect: 'sqlite',
      schema: undefined,
      indexes: async (table) =>
        names("select name from sqlite_master where type = 'index' and tbl_name = ? order by name", table),
      tables: async () => names("select name from sqlite_master where type = 'table' order by name"),
    };
  });
});
