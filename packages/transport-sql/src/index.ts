// Kept for callers that imported it from here; the reason is shared by every transport.
export { MAX_DELIVERY_COUNT_REASON } from '@nimbus/core';
export { TRANSPORT_MIGRATIONS } from './migrations/all-migrations.js';
export { type MigrateSqlTransportOptions, migrateSqlTransport } from './open-database.js';
export type {
  PostgresTransportConnection,
  SqliteTransportConnection,
  SqlTransportConnection,
  SqlTransportOptions,
} from './options.js';
export type { SettleGroupStats } from './settle-group.js';
export { createSqlTransport, SqlTransport } from './sql-transport.js';
