import Database from 'better-sqlite3';
import { AsyncMutex } from './async-mutex.js';
import type { Row, SqlDatabase, SqlExecutor } from './database.js';
import { translateDriverError } from './driver-errors.js';

/**
 * better-sqlite3 is synchronous; statements are cached and every transaction holds an in-process mutex so
 * async callers never interleave on the one connection. Other processes are kept out by `BEGIN IMMEDIATE`
 * plus the busy timeout.
 */
export function openSqliteDatabase(path: string, busyTimeoutMs: number): SqlDatabase {
  const db = new Database(path, { timeout: busyTimeoutMs });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma(`busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
  const statements = new Map<string, Database.Statement>();
  const mutex = new AsyncMutex();
  let inTransaction = false;

  const prepare = (sql: string): Database.Statement => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  const direct: SqlExecutor = {
    async all(sql, params = []) {
      try {
        const statement = prepare(sql);
        if (statement.reader) return statement.all(...params.map(toSqlite)) as Row[];
        statement.run(...params.map(toSqlite));
        return [];
      } catch (error) {
        throw translateDriverError(error);
      }
    },
    async run(sql, params = []) {
      try {
        return prepare(sql).run(...params.map(toSqlite)).changes;
      } catch (error) {
        throw translateDriverError(error);
      }
    },
  };
  const outside: SqlExecutor = {
    all: (sql, params) =>
      inTransaction ? mutex.run(() => direct.all(sql, params)) : direct.all(sql, params),
    run: (sql, params) =>
      inTransaction ? mutex.run(() => direct.run(sql, params)) : direct.run(sql, params),
  };

  return {
    dialect: 'sqlite',
    nowMs: `CAST(unixepoch('subsec') * 1000 AS INTEGER)`,
    skipLocked: '',
    ...outside,
    transaction(fn) {
      return mutex.run(async () => {
        try {
          prepare('BEGIN IMMEDIATE').run();
        } catch (error) {
          throw translateDriverError(error);
        }
        inTransaction = true;
        try {
          const result = await fn(direct);
          try {
            prepare('COMMIT').run();
          } catch (error) {
            throw translateDriverError(error);
          }
          return result;
        } catch (error) {
          if (db.inTransaction) prepare('ROLLBACK').run();
          throw error;
        } finally {
          inTransaction = false;
        }
      });
    },
    async close() {
      await mutex.run(async () => {
        db.close();
      });
    },
  };
}

function toSqlite(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value;
}
