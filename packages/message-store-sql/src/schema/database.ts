import type { Generated } from 'kysely';

/**
 * Physical row shapes. Every instant is stored as UTC epoch milliseconds (an integer column) so both
 * dialects compare and sort times the same way. Flags are 0/1 integers. `document_json` holds the whole
 * entity so every field round-trips exactly; the other columns exist to be filtered, sorted or counted.
 */
export interface UnresolvedEventsTable {
  id: Generated<number>;
  endpoint_id: string;
  event_id: string;
  session_id: string;
  status: string;
  message_type: string;
  parent_message_id: string | null;
  last_message_id: string | null;
  event_type_id: string | null;
  to_address: string | null;
  from_address: string | null;
  endpoint_role: string;
  pending_sub_status: string | null;
  external_job_id: string | null;
  updated_at: number;
  enqueued_time: number;
  deleted: number;
  /** When the row was soft-deleted (remove/purge) or archived; drives retention. */
  deleted_at: number | null;
  /** `removed` or `archived`: the two soft-delete kinds have different retention. */
  deletion_kind: string | null;
  /** When retention deletes the row (epoch ms), stamped at its last write; null keeps it. */
  expires_at: number | null;
  /** `rowFailureSignature` of a Failed or DeadLettered row (null otherwise), stamped at the status write. */
  failure_signature: string | null;
  document_json: string;
}

/** Live rows per (endpoint, status), kept by triggers in the same transaction as every row change. */
export interface EndpointStatusCountsTable {
  endpoint_id: string;
  status: string;
  live_count: number;
}

/**
 * PostgreSQL: changes to those counts not yet folded into them, appended by the count triggers (an insert
 * takes no lock another writer waits on); the live count is the counter plus its deltas. Empty on SQLite,
 * whose single writer updates the counters directly.
 */
export interface EndpointStatusCountDeltasTable {
  id: Generated<number>;
  endpoint_id: string;
  status: string;
  delta: number;
}

export interface MessagesTable {
  id: Generated<number>;
  event_id: string;
  message_id: string;
  endpoint_id: string;
  session_id: string | null;
  message_type: string;
  event_type_id: string | null;
  from_address: string | null;
  to_address: string | null;
  enqueued_time: number;
  queue_time_ms: number | null;
  processing_time_ms: number | null;
  has_error: number;
  has_event_json: number;
  created_at: number;
  document_json: string;
}

export interface MessageAuditsTable {
  id: Generated<number>;
  event_id: string;
  endpoint_id: string | null;
  event_type_id: string | null;
  auditor_name: string | null;
  audit_type: string;
  access_denied: number;
  audit_timestamp: number;
  created_at: number;
  document_json: string;
}

export interface EventReportsTable {
  endpoint_id: string;
  event_id: string;
  is_reported: number;
  reported_by: string | null;
  reported_at: number | null;
  ticket_id: string | null;
}

export interface EndpointSubscriptionsTable {
  id: string;
  endpoint_id: string;
  mail: string | null;
  document_json: string;
}

export interface EndpointMetadataTable {
  endpoint_id: string;
  is_heartbeat_enabled: number | null;
  endpoint_heartbeat_status: string | null;
  updated_at: number;
  document_json: string;
}

export interface HeartbeatsTable {
  id: Generated<number>;
  endpoint_id: string;
  message_id: string;
  start_time: number;
  received_time: number;
  end_time: number;
  status: string;
  sdk_version: string | null;
  interval_seconds: number;
}

export interface HeartbeatSettingsTable {
  id: string;
  enabled: number;
  interval_seconds: number;
  timeout_seconds: number;
  last_sent_at: number | null;
  last_fold_at: number | null;
  /** Has a default: an insert without it takes DEFAULT_MISSED_BEATS_UNTIL_OFF. */
  missed_beats_until_off: Generated<number>;
  updated_at: number;
}

export interface ServiceHealthTable {
  service_id: string;
  status: string;
  version: string | null;
  last_probe_message_id: string | null;
  last_probe_sent_at: number | null;
  last_seen_at: number | null;
  round_trip_ms: number | null;
  updated_at: number;
}

export interface HeartbeatUptimeDaysTable {
  endpoint_id: string;
  day_utc: number;
  expected: number;
  received: number;
  missed: number;
  observed_seconds: number;
  longest_gap_seconds: number;
  last_beat_at: number | null;
}

export interface HeartbeatGapsTable {
  endpoint_id: string;
  from_utc: number;
  to_utc: number | null;
  sdk_version_before: string | null;
  sdk_version_after: string | null;
}

export interface EventSchemasTable {
  event_type_id: string;
  created_at: number;
  document_json: string;
}

export interface AccessControlTable {
  id: string;
  updated_at: number;
  document_json: string;
}

export interface SchemaMigrationsTable {
  name: string;
  applied_at: number;
}

export interface StoreDatabase {
  unresolved_events: UnresolvedEventsTable;
  messages: MessagesTable;
  message_audits: MessageAuditsTable;
  event_reports: EventReportsTable;
  endpoint_subscriptions: EndpointSubscriptionsTable;
  endpoint_metadata: EndpointMetadataTable;
  heartbeats: HeartbeatsTable;
  heartbeat_settings: HeartbeatSettingsTable;
  service_health: ServiceHealthTable;
  heartbeat_uptime_days: HeartbeatUptimeDaysTable;
  heartbeat_gaps: HeartbeatGapsTable;
  event_schemas: EventSchemasTable;
  access_control: AccessControlTable;
  endpoint_status_counts: EndpointStatusCountsTable;
  endpoint_status_count_deltas: EndpointStatusCountDeltasTable;
  schema_migrations: SchemaMigrationsTable;
}

export type StoreTableName = keyof StoreDatabase;

export const STORE_TABLES: readonly StoreTableName[] = [
  'unresolved_events',
  'messages',
  'message_audits',
  'event_reports',
  'endpoint_subscriptions',
  'endpoint_metadata',
  'heartbeats',
  'heartbeat_settings',
  'service_health',
  'heartbeat_uptime_days',
  'heartbeat_gaps',
  'event_schemas',
  'access_control',
  'endpoint_status_counts',
  'endpoint_status_count_deltas',
  'schema_migrations',
];
