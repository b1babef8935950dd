import { UNRESOLVED_STATUSES } from '@nimbus/message-store';
import { sql } from 'kysely';
import type { SqlDialect, StoreDb } from '../dialect/sql-dialect.js';
import type { StoreTableName } from '../schema/database.js';
import type { Migration } from './migration.js';

/** The physical (schema-qualified or prefixed) name of a store table, as the table mapping writes it. */
function physical(tx: StoreDb, table: StoreTableName): string {
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

async function postgresCountTriggers(tx: StoreDb, rows: string, counts: string) {
  const schema = rows.slice(0, rows.lastIndexOf('.'));
  await sql
    .raw(
      `create function ${schema}.nimbus_count_row_change() returns trigger language plpgsql as $$
      begin
        if tg_op = 'UPDATE' and old.status = new.status and old.deleted = new.deleted then
          return null;
        end if;
        if tg_op in ('UPDATE', 'DELETE') and old.deleted = 0 then
          update ${counts} set live_count = live_count - 1
           where endpoint_id = old.endpoint_id and status = old.status;
        end if;
        if tg_op in ('INSERT', 'UPDATE') and new.deleted = 0 then
          insert into ${counts} as c (endpoint_id, status, live_count) values (new.endpoint_id, new.status, 1)
          on conflict (endpoint_id, status) do update set live_count = c.live_count + 1;
        end if;
        return null;
      end $$`,
    )
    .execute(tx);
  await sql
    .raw(
      `create trigger nimbus_count_row_change after insert or update of status, deleted or delete on ${rows}
       for each row execute function ${schema}.nimbus_count_row_change()`,
    )
    .execute(tx);
  await sql
    .raw(`create index ix_unresolved_events_event_lower on ${rows} (lower(event_id) text_pattern_ops)`)
    .execute(tx);
}
