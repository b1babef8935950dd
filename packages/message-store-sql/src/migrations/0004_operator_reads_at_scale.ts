import { UNRESOLVED_STATUSES } from '@nimbus/message-store';
import { sql } from 'kysely';
import type { SqlDialect, StoreDb } from '../dialect/sql-dialect.js';
import type { StoreTableName } from '../schema/database.js';
import type { Migration } from './migration.js';

/** The physical (schema-qualified or prefixed) name of a store table, as the table mapping writes it. */
export function physical(tx: StoreDb, table: StoreTableName): string {
  const compiled = tx.selectFrom(table).select(sql`1`.as('one')).compile().sql;
  return compiled.slice(compiled.indexOf(' from ') + ' from '.length).trim();
}

/**
 * Operator reads that cost the same at a million rows as at ten thousand:
 * - `endpoint_status_counts`: live rows per (endpoint, status), maintained by triggers on every insert,
 *   status change, soft delete, revival and delete of a resolver row, in the same transaction, so the
 *   endpoint counts are one index read instead of a scan;
 * - a partial index over the actionable rows (newest first), so the first page of Failed/Pending/… rows does
 *   not walk the Completed ones;
 * - on PostgreSQL a `lower(event_id)` pattern index for the case-insensitive event-id prefix search.
 */
export const operatorReadsAtScaleMigration: Migration = {
  name: '0004_operator_reads_at_scale',
  async up(tx: StoreDb, dialect: SqlDialect) {
    await tx.schema
      .createTable('endpoint_status_counts')
      .addColumn('endpoint_id', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('live_count', 'bigint', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint(dialect.indexName('pk_endpoint_status_counts'), ['endpoint_id', 'status'])
      .execute();
    const rows = physical(tx, 'unresolved_events');
    const counts = physical(tx, 'endpoint_status_counts');
    await sql
      .raw(
        `insert into ${counts} (endpoint_id, status, live_count)
         select endpoint_id, status, count(*) from ${rows} where deleted = 0 group by endpoint_id, status`,
      )
      .execute(tx);
    const unresolved = [...UNRESOLVED_STATUSES].map((s) => `'${s}'`).join(', ');
    const actionable = dialect.indexName('ix_unresolved_events_actionable');
    await sql
      .raw(
        `create index ${actionable} on ${rows} (endpoint_id, updated_at desc, id desc)
         where deleted = 0 and status in (${unresolved})`,
      )
      .execute(tx);
    if (dialect.name === 'sqlite') await sqliteCountTriggers(tx, dialect, rows, counts);
    else await postgresCountTriggers(tx, rows, counts);
  },
};

async function sqliteCountTriggers(tx: StoreDb, dialect: SqlDialect, rows: string, counts: string) {
  const add = (row: 'new') =>
    `insert into ${counts} (endpoint_id, status, live_count) select ${row}.endpoint_id, ${row}.status, 1
     where ${row}.deleted = 0 on conflict (endpoint_id, status) do update set live_count = live_count + 1;`;
  const remove = (row: 'old') =>
    `update ${counts} set live_count = live_count - 1
     where ${row}.deleted = 0 and endpoint_id = ${row}.endpoint_id and status = ${row}.status;`;
  const trigger = (name: string) => dialect.indexName(name);
  await sql
    .raw(`create trigger ${trigger('tr_counts_insert')} after insert on ${rows} begin ${add('new')} end`)
    .execute(tx);
  await sql
    .raw(`create trigger ${trigger('tr_counts_delete')} after delete on ${rows} begin ${remove('old')} end`)
    .execute(tx);
  await sql
    .raw(
      `create trigger ${trigger('tr_counts_update')} after update of status, deleted on ${rows}
       when old.status is not new.status or old.deleted is not new.deleted
       begin ${remove('old')} ${add('new')} end`,
    )
    .execute(tx);
}

/**
 * Statement-level triggers with transition tables: each statement applies one summed delta per (endpoint,
 * status), in key order, instead of updating a counter row once per changed row (a row updated many times in
 * one transaction grows a version chain every later update walks).
 */
async function postgresCountTriggers(tx: StoreDb, rows: string, counts: string) {
  const schema = rows.slice(0, rows.lastIndexOf('.'));
  const apply = (added: string, removed: string) => `
      insert into ${counts} as c (endpoint_id, status, live_count)
      select endpoint_id, status, sum(delta) from (
        ${added === '' ? '' : `select endpoint_id, status, 1 as delta from ${added} where deleted = 0`}
        ${added !== '' && removed !== '' ? 'union all' : ''}
        ${removed === '' ? '' : `select endpoint_id, status, -1 as delta from ${removed} where deleted = 0`}
      ) changes group by endpoint_id, status having sum(delta) <> 0 order by endpoint_id, status
      on conflict (endpoint_id, status) do update set live_count = c.live_count + excluded.live_count;`;
  const trigger = async (event: 'insert' | 'update' | 'delete', referencing: string, body: string) => {
    const fn = `${schema}.nimbus_count_rows_${event}`;
    await sql
      .raw(`create function ${fn}() returns trigger language plpgsql as $$ begin ${body} return null; end $$`)
      .execute(tx);
    await sql
      .raw(
        `create trigger nimbus_count_rows_${event} after ${event} on ${rows} referencing ${referencing}
         for each statement execute function ${fn}()`,
      )
      .execute(tx);
  };
  await trigger('insert', 'new table as added_rows', apply('added_rows', ''));
  await trigger('delete', 'old table as removed_rows', apply('', 'removed_rows'));
  await trigger(
    'update',
    'old table as removed_rows new table as added_rows',
    apply('added_rows', 'removed_rows'),
  );
  await sql
    .raw(`create index ix_unresolved_events_event_lower on ${rows} (lower(event_id) text_pattern_ops)`)
    .execute(tx);
}
