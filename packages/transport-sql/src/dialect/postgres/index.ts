import type { PostgresTransportConnection } from '../../options.js';
import type { TransportDialect } from '../dialect.js';
import { postgresDatabase } from './database.js';
import { postgresLease } from './lease.js';
import { postgresLineAppend } from './line-append.js';
import { postgresLocks } from './locks.js';
import { postgresReceive } from './receive.js';
import { postgresRelease } from './release.js';
import { postgresSchema } from './schema.js';
import { postgresSettle } from './settle.js';
import { postgresWakeups } from './wakeups.js';

/** PostgreSQL: many machines on one database; LISTEN/NOTIFY wake-ups, one-statement hot paths. */
export const postgresDialect: TransportDialect<PostgresTransportConnection> = {
  name: 'postgres',
  defaultPollIntervalMs: 1000,
  database: postgresDatabase,
  schema: postgresSchema,
  wakeups: postgresWakeups,
  lineAppend: postgresLineAppend,
  receive: postgresReceive,
  lease: postgresLease,
  release: postgresRelease,
  settle: postgresSettle,
  locks: postgresLocks,
};
