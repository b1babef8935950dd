export type { SqlTransportConnection, SqlTransportOptions } from './options.js';
export { MAX_DELIVERY_COUNT_REASON } from './sql-core.js';
export { createSqlTransport, SqlTransport } from './sql-transport.js';
