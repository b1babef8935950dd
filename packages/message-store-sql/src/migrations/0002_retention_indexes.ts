import type { SqlDialect, StoreDb } from '../dialect/sql-dialect.js';
import { index, type Migration } from './migration.js';

/** Indexes the retention sweeper's batched deletes walk, so a sweep never scans whole tables. */
export const retentionIndexesMigration: Migration = {
  name: '0002_retention_indexes',
  async up(tx: StoreDb, dialect: SqlDialect) {
    const ix = (name: string) => dialect.indexName(name);
    await index(tx, ix('ix_unresolved_events_retention'), 'unresolved_events', [
      'deleted',
      'status',
      'updated_at',
    ]);
    await index(tx, ix('ix_unresolved_events_deleted_at'), 'unresolved_events', ['deleted_at']);
    await index(tx, ix('ix_messages_created'), 'messages', ['created_at']);
    await index(tx, ix('ix_message_audits_created'), 'message_audits', ['created_at']);
  },
};
