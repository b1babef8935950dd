import { sql } from 'kysely';
import type { SqlDialect, StoreDb } from '../dialect/sql-dialect.js';
import { physical } from './0004_operator_reads_at_scale.js';
import type { Migration } from './migration.js';

/**
 * The failure-group index of 0005 carries every column the grouped read needs (session, status, event type),
 * so counting a group's sessions reads the index, not each failed row.
 */
export const failureGroupCoveringIndexMigration: Migration = {
  name: '0007_failure_group_covering_index',
  async up(tx: StoreDb, dialect: SqlDialect) {
    const table = physical(tx, 'unresolved_events');
    const old = dialect.indexName('ix_unresolved_events_failure_signature');
    const schema = table.includes('.') ? `${table.slice(0, table.lastIndexOf('.'))}.` : '';
    await sql.raw(`drop index if exists ${schema}${old}`).execute(tx);
    await sql
      .raw(
        `create index ${dialect.indexName('ix_unresolved_events_failure_groups')} on ${table}
         (failure_signature, endpoint_id, updated_at, id, session_id, status, event_type_id)
         where deleted = 0 and failure_signature is not null`,
      )
      .execute(tx);
  },
};
