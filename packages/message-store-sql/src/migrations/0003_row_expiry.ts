import { FINISHED_STATUSES, FIXED_RETENTION_MS } from '@nimbus/message-store';
import { sql } from 'kysely';
import type { SqlDialect, StoreDb } from '../dialect/sql-dialect.js';
import { index, type Migration } from './migration.js';

/**
 * Each resolver row carries the expiry it was written with (`expires_at`), so changing the unresolved
 * retention later affects only rows written afterwards. Existing rows get the expiry the fixed table gives
 * them; unresolved rows written before this migration keep none (they are never deleted by a window they
 * were not written under).
 */
export const rowExpiryMigration: Migration = {
  name: '0003_row_expiry',
  async up(tx: StoreDb, dialect: SqlDialect) {
    await tx.schema.alterTable('unresolved_events').addColumn('expires_at', 'bigint').execute();
    const finished = [...FINISHED_STATUSES];
    await tx
      .updateTable('unresolved_events')
      .set({ expires_at: sql`updated_at + ${FIXED_RETENTION_MS.terminalRows}` })
      .where('deleted', '=', 0)
      .where('status', 'in', finished)
      .execute();
    await tx
      .updateTable('unresolved_events')
      .set({ expires_at: sql`deleted_at + ${FIXED_RETENTION_MS.softDeletedRows}` })
      .where('deleted', '=', 1)
      .where('deletion_kind', '=', 'removed')
      .execute();
    await tx
      .updateTable('unresolved_events')
      .set({ expires_at: sql`deleted_at + ${FIXED_RETENTION_MS.archivedFailedRows}` })
      .where('deleted', '=', 1)
      .where('deletion_kind', '=', 'archived')
      .execute();
    await index(tx, dialect.indexName('ix_unresolved_events_expires'), 'unresolved_events', ['expires_at']);
  },
};
