import type { SqlDialect, StoreDb } from '../dialect/sql-dialect.js';
import { index, type Migration, withIdColumn } from './migration.js';

/** Every table of the store: resolver rows, history, audits, metadata, heartbeats, schemas, ACLs. */
export const initialMigration: Migration = {
  name: '0001_initial',
  async up(tx: StoreDb, dialect: SqlDialect) {
    const ix = (name: string) => dialect.indexName(name);

    await withIdColumn(tx.schema.createTable('unresolved_events'), dialect)
      .addColumn('endpoint_id', 'text', (c) => c.notNull())
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('session_id', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('message_type', 'text', (c) => c.notNull())
      .addColumn('parent_message_id', 'text')
      .addColumn('last_message_id', 'text')
      .addColumn('event_type_id', 'text')
      .addColumn('to_address', 'text')
      .addColumn('from_address', 'text')
      .addColumn('endpoint_role', 'text', (c) => c.notNull())
      .addColumn('pending_sub_status', 'text')
      .addColumn('external_job_id', 'text')
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('enqueued_time', 'bigint', (c) => c.notNull())
      .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('deleted_at', 'bigint')
      .addColumn('deletion_kind', 'text')
      .addColumn('document_json', 'text', (c) => c.notNull())
      .addUniqueConstraint(ix('uq_unresolved_events_key'), ['endpoint_id', 'event_id', 'session_id'])
      .execute();
    await index(tx, ix('ix_unresolved_events_endpoint_status'), 'unresolved_events', [
      'endpoint_id',
      'status',
      'deleted',
    ]);
    await index(tx, ix('ix_unresolved_events_endpoint_session'), 'unresolved_events', [
      'endpoint_id',
      'session_id',
      'status',
    ]);
    await index(tx, ix('ix_unresolved_events_endpoint_updated'), 'unresolved_events', [
      'endpoint_id',
      'updated_at',
    ]);
    await index(tx, ix('ix_unresolved_events_updated'), 'unresolved_events', ['updated_at']);
    await index(tx, ix('ix_unresolved_events_event'), 'unresolved_events', ['event_id']);
    await index(tx, ix('ix_unresolved_events_job'), 'unresolved_events', ['endpoint_id', 'external_job_id']);

    await withIdColumn(tx.schema.createTable('messages'), dialect)
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('message_id', 'text', (c) => c.notNull())
      .addColumn('endpoint_id', 'text', (c) => c.notNull())
      .addColumn('session_id', 'text')
      .addColumn('message_type', 'text', (c) => c.notNull())
      .addColumn('event_type_id', 'text')
      .addColumn('from_address', 'text')
      .addColumn('to_address', 'text')
      .addColumn('enqueued_time', 'bigint', (c) => c.notNull())
      .addColumn('queue_time_ms', 'bigint')
      .addColumn('processing_time_ms', 'bigint')
      .addColumn('has_error', 'integer', (c) => c.notNull())
      .addColumn('has_event_json', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('document_json', 'text', (c) => c.notNull())
      .addUniqueConstraint(ix('uq_messages_event_message'), ['event_id', 'message_id'])
      .execute();
    await index(tx, ix('ix_messages_endpoint_enqueued'), 'messages', ['endpoint_id', 'enqueued_time']);
    await index(tx, ix('ix_messages_enqueued'), 'messages', ['enqueued_time']);

    await withIdColumn(tx.schema.createTable('message_audits'), dialect)
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('endpoint_id', 'text')
      .addColumn('event_type_id', 'text')
      .addColumn('auditor_name', 'text')
      .addColumn('audit_type', 'text', (c) => c.notNull())
      .addColumn('access_denied', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('audit_timestamp', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('document_json', 'text', (c) => c.notNull())
      .execute();
    await index(tx, ix('ix_message_audits_event'), 'message_audits', ['event_id']);
    await index(tx, ix('ix_message_audits_endpoint'), 'message_audits', ['endpoint_id', 'created_at']);

    await tx.schema
      .createTable('event_reports')
      .addColumn('endpoint_id', 'text', (c) => c.notNull())
      .addColumn('event_id', 'text', (c) => c.notNull())
      .addColumn('is_reported', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('reported_by', 'text')
      .addColumn('reported_at', 'bigint')
      .addColumn('ticket_id', 'text')
      .addPrimaryKeyConstraint(ix('pk_event_reports'), ['endpoint_id', 'event_id'])
      .execute();

    await tx.schema
      .createTable('endpoint_subscriptions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('endpoint_id', 'text', (c) => c.notNull())
      .addColumn('mail', 'text')
      .addColumn('document_json', 'text', (c) => c.notNull())
      .execute();
    await index(tx, ix('ix_endpoint_subscriptions_endpoint'), 'endpoint_subscriptions', [
      'endpoint_id',
      'mail',
    ]);

    await tx.schema
      .createTable('endpoint_metadata')
      .addColumn('endpoint_id', 'text', (c) => c.primaryKey())
      .addColumn('is_heartbeat_enabled', 'integer')
      .addColumn('endpoint_heartbeat_status', 'text')
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('document_json', 'text', (c) => c.notNull())
      .execute();

    await withIdColumn(tx.schema.createTable('heartbeats'), dialect)
      .addColumn('endpoint_id', 'text', (c) => c.notNull())
      .addColumn('message_id', 'text', (c) => c.notNull())
      .addColumn('start_time', 'bigint', (c) => c.notNull())
      .addColumn('received_time', 'bigint', (c) => c.notNull())
      .addColumn('end_time', 'bigint', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('sdk_version', 'text')
      .addColumn('interval_seconds', 'integer', (c) => c.notNull().defaultTo(0))
      .addUniqueConstraint(ix('uq_heartbeats_endpoint_message'), ['endpoint_id', 'message_id'])
      .execute();
    await index(tx, ix('ix_heartbeats_endpoint_start'), 'heartbeats', ['endpoint_id', 'start_time']);

    await tx.schema
      .createTable('heartbeat_settings')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('interval_seconds', 'integer', (c) => c.notNull().defaultTo(300))
      .addColumn('timeout_seconds', 'integer', (c) => c.notNull().defaultTo(60))
      .addColumn('last_sent_at', 'bigint')
      .addColumn('last_fold_at', 'bigint')
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();

    await tx.schema
      .createTable('service_health')
      .addColumn('service_id', 'text', (c) => c.primaryKey())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('version', 'text')
      .addColumn('last_probe_message_id', 'text')
      .addColumn('last_probe_sent_at', 'bigint')
      .addColumn('last_seen_at', 'bigint')
      .addColumn('round_trip_ms', 'bigint')
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();

    await tx.schema
      .createTable('heartbeat_uptime_days')
      .addColumn('endpoint_id', 'text', (c) => c.notNull())
      .addColumn('day_utc', 'bigint', (c) => c.notNull())
      .addColumn('expected', 'integer', (c) => c.notNull())
      .addColumn('received', 'integer', (c) => c.notNull())
      .addColumn('missed', 'integer', (c) => c.notNull())
      .addColumn('observed_seconds', 'integer', (c) => c.notNull())
      .addColumn('longest_gap_seconds', 'integer', (c) => c.notNull())
      .addColumn('last_beat_at', 'bigint')
      .addPrimaryKeyConstraint(ix('pk_heartbeat_uptime_days'), ['endpoint_id', 'day_utc'])
      .execute();
    await index(tx, ix('ix_heartbeat_uptime_days_day'), 'heartbeat_uptime_days', ['day_utc']);

    await tx.schema
      .createTable('heartbeat_gaps')
      .addColumn('endpoint_id', 'text', (c) => c.notNull())
      .addColumn('from_utc', 'bigint', (c) => c.notNull())
      .addColumn('to_utc', 'bigint')
      .addColumn('sdk_version_before', 'text')
      .addColumn('sdk_version_after', 'text')
      .addPrimaryKeyConstraint(ix('pk_heartbeat_gaps'), ['endpoint_id', 'from_utc'])
      .execute();
    await index(tx, ix('ix_heartbeat_gaps_to'), 'heartbeat_gaps', ['to_utc']);

    await tx.schema
      .createTable('event_schemas')
      .addColumn('event_type_id', 'text', (c) => c.primaryKey())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('document_json', 'text', (c) => c.notNull())
      .execute();

    await tx.schema
      .createTable('access_control')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('document_json', 'text', (c) => c.notNull())
      .execute();
  },
};
