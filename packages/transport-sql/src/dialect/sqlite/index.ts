import type { SqliteTransportConnection } from '../../options.js';
import type { TransportDialect } from '../dialect.js';
import { sqliteDatabase } from './database.js';
import { sqliteLease } from './lease.js';
import { sqliteLineAppend } from './line-append.js';
import { sqliteLocks } from './locks.js';
import { sqliteReceive } from './receive.js';
import { sqliteRelease } from './release.js';
import { sqliteSchema } from './schema.js';
import { sqliteSettle } from './settle.js';
import { sqliteWakeups } from './wakeups.js';

/** SQLite: one file shared by the processes of one machine; one writer at a time, adaptive polling. */
export const sqliteDialect: TransportDialect<SqliteTransportConnection> = {
  name: 'sqlite',
  defaultPollIntervalMs: 200,
  database: sqliteDatabase,
  schema: sqliteSchema,
  wakeups: sqliteWakeups,
  lineAppend: sqliteLineAppend,
  receive: sqliteReceive,
  lease: sqliteLease,
  release: sqliteRelease,
  settle: sqliteSettle,
  locks: sqliteLocks,
};
