import { createHash } from 'node:crypto';
import { TransportError } from '@nimbus/core';
import pg from 'pg';
import type { Row, SqlDatabase, SqlExecutor } from './database.js';
import { translateDriverError } from './driver-errors.js';

// int8 columns (epoch-millisecond times, sequences) fit in a double for the next few hundred thousand years.
const INT8_OID = 20;
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

const TRANSIENT_SQLSTATES = new Set(['40001', '40P01']);

export interface PostgresDatabase extends SqlDatabase {
  readonly pool: pg.Pool;
}

/** A pg pool; `?` placeholders become `$n`; transactions retry a few times on deadlock/serialization failure. */
export function openPostgresDatabase(connectionString: string, poolSize: number): PostgresDatabase {
  const pool = new pg.Pool({ connectionString, max: poolSize, types });
  // An idle client that loses its connection must not crash the process; the next checkout reconnects.
  pool.on('error', () => undefined);
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
    dialect: 'postgres',
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
          const cause = error instanceof TransportError ? error.cause : error;
          const code = (cause as { code?: string } | undefined)?.code;
          if (attempt < 4 && code !== undefined && TRANSIENT_SQLSTATES.has(code)) continue;
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
