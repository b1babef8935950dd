import { createHash } from 'node:crypto';
import { NimBusError, NimBusErrorCode } from '@nimbus/core';
import { classifyDriverError, openPostgresPool, type StatementTimeouts } from '@nimbus/sql';
import type pg from 'pg';
import type { PostgresTransportConnection } from '../../options.js';
import type { Row, SqlDatabase, SqlExecutor } from '../../sql/database.js';
import { translateDriverError } from '../../sql/driver-errors.js';
import { tableNames } from '../../tables.js';
import type { DialectDatabase } from '../dialect.js';
import { listenForWork } from './wakeups.js';

export const postgresDatabase: DialectDatabase<PostgresTransportConnection> = {
  open(connection) {
    if (typeof connection.connectionString !== 'string' || connection.connectionString.length === 0) {
      throw new NimBusError(
        NimBusErrorCode.InvalidOption,
        'SQL transport: postgres connection needs a non-empty connectionString',
      );
    }
    const namespace = connection.schema ?? 'nimbus_transport';
    const tables = tableNames(namespace, 'schema', (table) => `"${namespace}"."${table}"`);
    return {
      db: openPostgresDatabase(connection.connectionString, connection.poolSize ?? 10, {
        ...(connection.statementTimeoutMs ? { statementTimeoutMs: connection.statementTimeoutMs } : {}),
        ...(connection.lockTimeoutMs ? { lockTimeoutMs: connection.lockTimeoutMs } : {}),
      }),
      tables,
      namespace,
      listen: (wakeups, logger) =>
        listenForWork(connection.connectionString, tables.channel, wakeups, logger),
    };
  },
};

export interface PostgresDatabase extends SqlDatabase {
  readonly pool: pg.Pool;
}

/** A pg pool; `?` placeholders become `$n`; transactions retry a few times on deadlock/serialization failure. */
export function openPostgresDatabase(
  connectionString: string,
  poolSize: number,
  timeouts: StatementTimeouts = {},
): PostgresDatabase {
  // Connection errors nobody awaits are handled by the pool (the client is discarded); queries report theirs.
  const pool = openPostgresPool({
    connectionString,
    max: poolSize,
    applicationName: 'nimbus-transport',
    ...timeouts,
  });
  const rewritten = new Map<string, string>();
  const toPg = (sql: string): string => {
    let text = rewritten.get(sql);
    if (text === undefined) {
      let n = 0;
      text = sql.replace(/\?/g, () => `$${++n}`);
      rewritten.set(sql, text);
    }
    return text;
  };
  const names = new Map<string, string>();
  const nameOf = (text: string): string => {
    let name = names.get(text);
    if (name === undefined) {
      name = `nimbus_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
      names.set(text, name);
    }
    return name;
  };
  const executor = (client: pg.Pool | pg.PoolClient): SqlExecutor => ({
    async all(sql, params = [], options) {
      const text = toPg(sql);
      const values = params as unknown[];
      try {
        if (options?.prepared)
          return (await client.query({ name: nameOf(text), text, values })).rows as Row[];
        return (await client.query(text, values)).rows as Row[];
      } catch (error) {
        throw translateDriverError(error);
      }
    },
    async run(sql, params = []) {
      try {
        return (await client.query(toPg(sql), params as unknown[])).rowCount ?? 0;
      } catch (error) {
        throw translateDriverError(error);
      }
    },
  });

  return {
    pool,
    nowMs: `(extract(epoch from clock_timestamp()) * 1000)::bigint`,
    skipLocked: ' FOR UPDATE SKIP LOCKED',
    ...executor(pool),
    async transaction(fn) {
      for (let attempt = 1; ; attempt++) {
        let client: pg.PoolClient;
        try {
          client = await pool.connect();
        } catch (error) {
          throw translateDriverError(error);
        }
        let broken = false;
        try {
          await client.query('BEGIN');
          const result = await fn(executor(client));
          await client.query('COMMIT');
          return result;
        } catch (error) {
          try {
            await client.query('ROLLBACK');
          } catch {
            broken = true;
          }
          if (attempt < 4 && classifyDriverError(error).reason === 'conflict') continue;
          throw translateDriverError(error);
        } finally {
          client.release(broken);
        }
      }
    },
    async close() {
      await pool.end();
    },
  };
}
