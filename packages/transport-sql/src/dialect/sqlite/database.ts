import { NimBusError, NimBusErrorCode } from '@nimbus/core';
import { openSqliteDatabase as openSqliteFile, sqliteFileGate } from '@nimbus/sql';
import type Database from 'better-sqlite3';
import type { SqliteTransportConnection } from '../../options.js';
import type { Row, SqlDatabase, SqlExecutor } from '../../sql/database.js';
import { translateDriverError } from '../../sql/driver-errors.js';
import { tableNames } from '../../tables.js';
import type { DialectDatabase, OpenedTransportDatabase } from '../dialect.js';
import { startHeldLinePoller } from './held-line-poller.js';

interface QueuedTransaction {
  readonly fn: (tx: SqlExecutor) => Promise<unknown>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

const MAX_GROUP = 64;

export const sqliteDatabase: DialectDatabase<SqliteTransportConnection> = {
  open(connection, busyTimeoutMs) {
    if (typeof connection.path !== 'string' || connection.path.length === 0) {
      throw new NimBusError(
        NimBusErrorCode.InvalidOption,
        'SQL transport: sqlite connection needs a non-empty path',
      );
    }
    const namespace = connection.tablePrefix ?? 'nimbus_transport_';
    const tables = tableNames(namespace, 'tablePrefix', (table) => `"${namespace}${table}"`);
    const db = openSqliteDatabase(connection.path, busyTimeoutMs);
    // No LISTEN: other processes' work is found by polling (held-line-poller.ts, wakeups.ts).
    const listen: OpenedTransportDatabase['listen'] = async (wakeups, logger, options) =>
      startHeldLinePoller(db, tables, wakeups, logger, options);
    return { db, tables, namespace, listen };
  },
};

/**
 * better-sqlite3 is synchronous: statements are cached, and an in-process mutex keeps async callers from
 * interleaving on the one connection. Transactions queued while one runs are committed together (group commit):
 * each runs inside its own SAVEPOINT, so a failing one rolls back alone, and every caller is answered only after
 * the shared COMMIT. Other processes are kept out by `BEGIN IMMEDIATE` plus the busy timeout.
 */
export function openSqliteDatabase(path: string, busyTimeoutMs: number): SqlDatabase {
  const db = openSqliteFile(path, { busyTimeoutMs: Math.trunc(busyTimeoutMs) });
  const statements = new Map<string, Database.Statement>();
  // Shared with every connection of this process to the same file (a co-located message store's, too).
  const mutex = sqliteFileGate(path);
  const queue: QueuedTransaction[] = [];
  let draining = false;
  let inTransaction = false;

  const prepare = (sql: string): Database.Statement => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  const exec = (sql: string): void => {
    try {
      prepare(sql).run();
    } catch (error) {
      throw translateDriverError(error);
    }
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

  const runGroup = async (group: QueuedTransaction[]): Promise<void> => {
    try {
      exec('BEGIN IMMEDIATE');
    } catch (error) {
      for (const job of group) job.reject(error);
      return;
    }
    inTransaction = true;
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    try {
      for (const job of group) {
        exec('SAVEPOINT nimbus_tx');
        try {
          const value = await job.fn(direct);
          exec('RELEASE nimbus_tx');
          outcomes.push({ ok: true, value });
        } catch (error) {
          exec('ROLLBACK TO nimbus_tx');
          exec('RELEASE nimbus_tx');
          outcomes.push({ ok: false, error });
        }
      }
      exec('COMMIT');
    } catch (error) {
      let failure = error;
      if (db.inTransaction) {
        try {
          prepare('ROLLBACK').run();
        } catch (rollbackError) {
          failure = new AggregateError(
            [error, rollbackError],
            'SQLite transaction failed and could not be rolled back',
          );
        }
      }
      for (const job of group) job.reject(failure);
      return;
    } finally {
      inTransaction = false;
    }
    group.forEach((job, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) job.resolve(outcome.value);
      else job.reject(outcome.error);
    });
  };

  const drain = async (): Promise<void> => {
    draining = true;
    try {
      // One group per mutex turn, so plain statements queued meanwhile get their turn between groups.
      while (queue.length > 0) await mutex.run(() => runGroup(queue.splice(0, MAX_GROUP)));
    } finally {
      draining = false;
    }
  };

  return {
    nowMs: `CAST(unixepoch('subsec') * 1000 AS INTEGER)`,
    skipLocked: '',
    all: (sql, params) =>
      inTransaction || mutex.busy ? mutex.run(() => direct.all(sql, params)) : direct.all(sql, params),
    run: (sql, params) =>
      inTransaction || mutex.busy ? mutex.run(() => direct.run(sql, params)) : direct.run(sql, params),
    transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queue.push({ fn, resolve: resolve as (value: unknown) => void, reject });
        if (!draining) void drain();
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
