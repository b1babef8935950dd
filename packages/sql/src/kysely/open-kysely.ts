import type BetterSqlite3 from 'better-sqlite3';
import { Kysely, type KyselyPlugin, PostgresDialect } from 'kysely';
import type { SqlDialect } from '../dialect.js';
import type { SqlExecutor } from '../executor.js';
import { openPostgresPool, type StatementTimeouts } from '../postgres.js';
import { openSqliteDatabase } from '../sqlite.js';
import { sqliteFileGate } from '../sqlite-file-gate.js';
import { cachingStatements } from '../statement-cache.js';
import { executorDialect } from './executor-dialect.js';
import { GatedSqliteDialect } from './gated-sqlite-dialect.js';

/** The database a Kysely instance is opened on. */
export type KyselyTarget =
  | {
      readonly dialect: 'sqlite';
      readonly filename: string;
      /** How long a writer waits for another process's write lock before SQLITE_BUSY; default 5 000 ms. */
      readonly busyTimeoutMs?: number;
    }
  | (StatementTimeouts & {
      readonly dialect: 'postgres';
      readonly connectionString: string;
      /** Pool size. */
      readonly max: number;
      /** Shown in `pg_stat_activity`. */
      readonly applicationName: string;
      /** Also read `numeric` columns (aggregates) as numbers. */
      readonly numericAsNumber?: boolean;
    });

export interface OpenedKysely<DB> {
  readonly db: Kysely<DB>;
  readonly dialect: SqlDialect;
  /** The better-sqlite3 database under `db` (SQLite only), for synchronous checks such as `inTransaction`. */
  readonly sqlite: BetterSqlite3.Database | null;
}

/**
 * The one Kysely opener of NimBus: SQLite through better-sqlite3 in WAL mode with statements prepared once and
 * every turn taken at the file's gate (`sqliteFileGate`), or a PostgreSQL pool with error listeners on the pool
 * and every client (a database restart never takes the process down) and the statement and lock timeouts.
 */
export function openKysely<DB>(
  target: KyselyTarget,
  options: { readonly plugins?: readonly KyselyPlugin[] } = {},
): OpenedKysely<DB> {
  const plugins = [...(options.plugins ?? [])];
  if (target.dialect === 'sqlite') {
    const raw = openSqliteDatabase(target.filename, {
      ...(target.busyTimeoutMs === undefined ? {} : { busyTimeoutMs: Math.floor(target.busyTimeoutMs) }),
    });
    const dialect = new GatedSqliteDialect(cachingStatements(raw), sqliteFileGate(target.filename));
    return { db: new Kysely<DB>({ dialect, plugins }), dialect: 'sqlite', sqlite: raw };
  }
  const pool = openPostgresPool({
    connectionString: target.connectionString,
    max: target.max,
    applicationName: target.applicationName,
    ...(target.numericAsNumber ? { numericAsNumber: true } : {}),
    ...(target.statementTimeoutMs ? { statementTimeoutMs: target.statementTimeoutMs } : {}),
    ...(target.lockTimeoutMs ? { lockTimeoutMs: target.lockTimeoutMs } : {}),
  });
  return {
    db: new Kysely<DB>({ dialect: new PostgresDialect({ pool }), plugins }),
    dialect: 'postgres',
    sqlite: null,
  };
}

/**
 * A Kysely instance whose statements run inside a transaction someone else holds (`executor`): the same query
 * builder and table mapping inside the SQL transport's transaction (co-located tracking) or a migration's.
 */
export function kyselyOver<DB>(
  dialect: SqlDialect,
  executor: Pick<SqlExecutor, 'all'>,
  options: { readonly plugins?: readonly KyselyPlugin[] } = {},
): Kysely<DB> {
  return new Kysely<DB>({
    dialect: executorDialect(dialect, executor),
    plugins: [...(options.plugins ?? [])],
  });
}
