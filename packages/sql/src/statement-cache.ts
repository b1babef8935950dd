import { NimBusError, NimBusErrorCode } from '@nimbus/core';
import type Database from 'better-sqlite3';

/** The part of a better-sqlite3 database that a query builder's SQLite driver uses (Kysely's `SqliteDatabase`). */
export interface PreparingDatabase {
  prepare(sql: string): Database.Statement;
  close(): void;
}

/**
 * A view of `db` that prepares each distinct statement text once and reuses it (least recently used
 * texts are dropped beyond `capacity`). Kysely's SQLite driver prepares every query again, which costs as much
 * as running a small statement; the texts it sends repeat (parameters are bound), so a small cache removes it.
 * A statement still iterating (a streamed query) is never handed out twice: a fresh one is prepared instead.
 */
export function cachingStatements(db: Database.Database, capacity = 256): PreparingDatabase {
  if (!(Number.isInteger(capacity) && capacity > 0))
    throw new NimBusError(
      NimBusErrorCode.InvalidOption,
      `statement cache capacity must be a positive integer, got ${String(capacity)}`,
    );
  const cache = new Map<string, Database.Statement>();
  return {
    prepare(sql) {
      const cached = cache.get(sql);
      if (cached !== undefined && !cached.busy) {
        cache.delete(sql);
        cache.set(sql, cached);
        return cached;
      }
      const statement = db.prepare(sql);
      if (cached === undefined) {
        cache.set(sql, statement);
        if (cache.size > capacity) cache.delete(cache.keys().next().value as string);
      }
      return statement;
    },
    close() {
      cache.clear();
      db.close();
    },
  };
}
