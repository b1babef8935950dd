import { DEFAULT_MISSED_BEATS_UNTIL_OFF } from '@nimbus/message-store';
import type { StoreDb } from '../dialect/sql-dialect.js';
import type { Migration } from './migration.js';

/** The heartbeat settings say how many missed beats turn an overdue endpoint Off (was fixed at three). */
export const heartbeatMissedBeatsMigration: Migration = {
  name: '0008_heartbeat_missed_beats',
  async up(tx: StoreDb) {
    await tx.schema
      .alterTable('heartbeat_settings')
      .addColumn('missed_beats_until_off', 'integer', (c) =>
        c.notNull().defaultTo(DEFAULT_MISSED_BEATS_UNTIL_OFF),
      )
      .execute();
  },
};
