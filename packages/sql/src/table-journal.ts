import { inTransaction, type SqlConnection, sqlExecutorOf } from './connection.js';
import type { SqlDialect } from './dialect.js';
import type { SqlExecutor } from './executor.js';
import type { MigrationJournal } from './migrations.js';
import { sqlName } from './sql-name.js';

export interface TableJournalOptions {
  readonly connection: SqlConnection;
  readonly dialect: SqlDialect;
  /** The journal table (unquoted), e.g. `nimbus_outbox_migrations`. */
  readonly table: string;
  /** PostgreSQL schema of the journal (created when missing); absent: the connection's current schema. */
  readonly schema?: string | null;
  /** What is migrated and where, for errors: e.g. `outbox table "nimbus_outbox"`. */
  readonly placement: string;
}

/**
 * A journal table beside the tables it versions, on any connection: reading it is a plain SELECT (no DDL, no
 * lock); applying runs in one transaction under `pg_advisory_xact_lock` on PostgreSQL (without the pool's
 * statement and lock timeouts: DDL may wait for locks) and the write lock (`BEGIN IMMEDIATE`) on SQLite.
 */
export function tableJournal(options: TableJournalOptions): MigrationJournal<SqlExecutor> {
  const { connection, dialect, placement } = options;
  const table = sqlName(options.table, 'journal table');
  const schema = options.schema ? sqlName(options.schema, 'schema') : null;
  const qualified = schema ? `"${schema}"."${table}"` : `"${table}"`;
  const exists = async (executor: SqlExecutor) => {
    const rows =
      dialect === 'sqlite'
        ? await executor.all("select 1 as found from sqlite_master where type = 'table' and name = ?", [
            table,
          ])
        : await executor.all(
            'select 1 as found from information_schema.tables where table_schema = coalesce(?, current_schema()) and table_name = ?',
            [schema, table],
          );
    return rows.length > 0;
  };
  return {
    placement,
    async readApplied(tx) {
      const executor = tx ?? sqlExecutorOf(connection, dialect);
      if (!(await exists(executor))) return null;
      const rows = await executor.all(`select name from ${qualified}`);
      return new Set(rows.map((row) => String(row.name)));
    },
    locked: (work) =>
      inTransaction(connection, dialect, async (tx) => {
        if (dialect === 'postgres') {
          await tx.run('set local statement_timeout = 0');
          await tx.run('set local lock_timeout = 0');
          await tx.all('select pg_advisory_xact_lock(hashtext(?))', [
            `nimbus.migrations.${schema ?? ''}.${table}`,
          ]);
        }
        return work(tx);
      }),
    async createJournal(tx) {
      if (schema && dialect === 'postgres') await tx.run(`create schema if not exists "${schema}"`);
      const big = dialect === 'postgres' ? 'bigint' : 'integer';
      await tx.run(
        `create table if not exists ${qualified} (name text primary key, applied_at ${big} not null)`,
      );
    },
    async record(tx, name, appliedAt) {
      await tx.run(`insert into ${qualified} (name, applied_at) values (?, ?)`, [name, appliedAt]);
    },
  };
}
