import { sql } from 'kysely';
import type { SqlDialect, StoreDb } from '../dialect/sql-dialect.js';
import { physical } from './0004_operator_reads_at_scale.js';
import { index, type Migration, withIdColumn } from './migration.js';

/**
 * PostgreSQL's count triggers append deltas instead of updating the counter rows. Updating them in place made
 * every writing transaction lock the same few hot rows ((endpoint, Completed) above all) until commit, and in
 * no common order: an `INSERT … ON CONFLICT DO UPDATE` fires its statement's INSERT trigger and then its UPDATE
 * trigger, each locking the counters it changes, so two concurrent Resolver batches could each hold one counter
 * the other needed next (deadlock, and under load a stream of them that stalled the Resolver). An append takes
 * no lock another writer waits on. The store folds the deltas into the counters in one sorted statement of
 * its own (`foldStatusCountDeltas`); a count read sums the counter and its unfolded deltas. SQLite has one
 * writer and keeps its row triggers; the table exists there too, empty, so the read is the same.
 */
export const statusCountDeltasMigration: Migration = {
  name: '0006_status_count_deltas',
  async up(tx: StoreDb, dialect: SqlDialect) {
    await withIdColumn(tx.schema.createTable('endpoint_status_count_deltas'), dialect)
      .addColumn('endpoint_id', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('delta', 'bigint', (c) => c.notNull())
      .execute();
    await index(
      tx,
      dialect.indexName('ix_endpoint_status_count_deltas_endpoint'),
      'endpoint_status_count_deltas',
      ['endpoint_id'],
    );
    if (dialect.name !== 'postgres') return;
    const rows = physical(tx, 'unresolved_events');
    const deltas = physical(tx, 'endpoint_status_count_deltas');
    const schema = rows.slice(0, rows.lastIndexOf('.'));
    const append = (added: string, removed: string) => `
      insert into ${deltas} (endpoint_id, status, delta)
      select endpoint_id, status, sum(delta) from (
        ${added === '' ? '' : `select endpoint_id, status, 1 as delta from ${added} where deleted = 0`}
        ${added !== '' && removed !== '' ? 'union all' : ''}
        ${removed === '' ? '' : `select endpoint_id, status, -1 as delta from ${removed} where deleted = 0`}
      ) changes group by endpoint_id, status having sum(delta) <> 0;`;
    // The triggers of 0004 stay; only what their functions do changes.
    const replace = (event: 'insert' | 'update' | 'delete', body: string) =>
      sql
        .raw(
          `create or replace function ${schema}.nimbus_count_rows_${event}() returns trigger language plpgsql
           as $$ begin ${body} return null; end $$`,
        )
        .execute(tx);
    await replace('insert', append('added_rows', ''));
    await replace('delete', append('', 'removed_rows'));
    await replace('update', append('added_rows', 'removed_rows'));
  },
};
