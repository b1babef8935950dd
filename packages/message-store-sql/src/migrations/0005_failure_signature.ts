import { rowFailureSignature } from '@nimbus/message-store';
import { FAILURE_GROUP_STATUSES } from '@nimbus/message-store/provider';
import { sql } from 'kysely';
import type { SqlDialect, StoreDb } from '../dialect/sql-dialect.js';
import { decodeDocument } from '../store/document-codec.js';
import { physical } from './0004_operator_reads_at_scale.js';
import type { Migration } from './migration.js';

/** Rows backfilled per statement round. */
const BACKFILL_BATCH = 500;

/**
 * Failure groups: each Failed or DeadLettered row carries its failure signature (`rowFailureSignature`,
 * stamped at every status write), and a partial index over the live rows that have one serves the grouped
 * read (`getFailureGroups`) and the group's event search. Existing failed rows are backfilled here.
 */
export const failureSignatureMigration: Migration = {
  name: '0005_failure_signature',
  async up(tx: StoreDb, dialect: SqlDialect) {
    await tx.schema.alterTable('unresolved_events').addColumn('failure_signature', 'text').execute();
    for (let after = 0; ; ) {
      const rows = await tx
        .selectFrom('unresolved_events')
        .select(['id', 'status', 'document_json'])
        .where('status', 'in', [...FAILURE_GROUP_STATUSES])
        .where('id', '>', after)
        .orderBy('id')
        .limit(BACKFILL_BATCH)
        .execute();
      for (const row of rows) {
        const event = decodeDocument<Parameters<typeof rowFailureSignature>[0]>(row.document_json);
        const signature = rowFailureSignature({ ...event, resolutionStatus: row.status as never });
        await tx
          .updateTable('unresolved_events')
          .set({ failure_signature: signature })
          .where('id', '=', row.id)
          .execute();
      }
      if (rows.length < BACKFILL_BATCH) break;
      after = Number(rows.at(-1)!.id);
    }
    await sql
      .raw(
        `create index ${dialect.indexName('ix_unresolved_events_failure_signature')} on ${physical(tx, 'unresolved_events')}
         (failure_signature, endpoint_id, updated_at) where deleted = 0 and failure_signature is not null`,
      )
      .execute(tx);
  },
};
