import { NimBusError, NimBusErrorCode } from '@nimbus/core';
import type { NamedMigration, SqlDialect, SqlExecutor } from '@nimbus/sql';
import { epochType } from '../sql/sql-connection.js';

/** Where one outbox table lives: the names as given (checked) and the quoted, qualified table. */
export interface OutboxPlacement {
  readonly dialect: SqlDialect;
  readonly tableName: string;
  readonly schema: string | undefined;
  readonly table: string;
}

export const OUTBOX_COLUMNS = [
  'id',
  'message_id',
  'source',
  'destination',
  'event_type_id',
  'session_id',
  'correlation_id',
  'payload',
  'enqueue_at',
  'created_at',
  'dispatched_at',
  'trace_parent',
  'trace_state',
] as const;

/** Columns releases after the first added; the baseline adds them to a table an older version created. */
const UPGRADE_COLUMNS: Record<string, (dialect: SqlDialect) => string> = {
  destination: () => 'text',
  enqueue_at: epochType,
  trace_parent: () => 'text',
  trace_state: () => 'text',
};

/** Column names of an existing table, or an empty set when it does not exist. */
async function existingColumns(tx: SqlExecutor, at: OutboxPlacement): Promise<Set<string>> {
  const rows =
    at.dialect === 'sqlite'
      ? await tx.all('select name from pragma_table_info(?)', [at.tableName])
      : await tx.all(
          `select column_name as name from information_schema.columns
           where table_name = ? and table_schema = coalesce(?, current_schema())`,
          [at.tableName, at.schema ?? null],
        );
  return new Set(rows.map((r) => String(r.name)));
}

/**
 * The outbox's numbered migrations. `0001_baseline` is the schema that `ensureTableExists` created before the
 * journal existed, written so that it accepts such a table: it creates what is missing (the table, the columns
 * later versions added, the pending index) and refuses a table that lacks a column no version ever added.
 */
export function outboxMigrations(at: OutboxPlacement): readonly NamedMigration<SqlExecutor>[] {
  return [
    {
      name: '0001_baseline',
      async up(tx) {
        const epoch = epochType(at.dialect);
        await tx.run(
          `create table if not exists ${at.table} (
            id text primary key,
            message_id text not null,
            source text not null,
            destination text,
            event_type_id text,
            session_id text not null,
            correlation_id text,
            payload text not null,
            enqueue_at ${epoch},
            created_at ${epoch} not null,
            dispatched_at ${epoch},
            trace_parent text,
            trace_state text
          )`,
        );
        const present = await existingColumns(tx, at);
        for (const [column, type] of Object.entries(UPGRADE_COLUMNS)) {
          if (!present.has(column))
            await tx.run(`alter table ${at.table} add column ${column} ${type(at.dialect)}`);
        }
        const missing = OUTBOX_COLUMNS.filter((c) => !present.has(c) && !(c in UPGRADE_COLUMNS));
        if (missing.length > 0) {
          throw new NimBusError(
            NimBusErrorCode.SchemaOutOfDate,
            `Outbox table ${at.table} exists but lacks required columns: ${missing.join(', ')}`,
          );
        }
        await tx.run(
          `create index if not exists "${at.tableName}_pending" on ${at.table} (created_at, id) where dispatched_at is null`,
        );
      },
    },
  ];
}
