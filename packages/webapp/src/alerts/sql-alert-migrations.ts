import type { WebAppSchema } from '../sql/webapp-migrations.js';
import { createThreadTables } from './sql-alert-threads.js';

/**
 * The alert tables' migrations (journal `nimbus_alert_migrations`). `0001_baseline` is the schema the WebApp
 * created at open before the journal existed (`if not exists` throughout), so it accepts those tables.
 */
export const ALERT_SCHEMA: WebAppSchema = {
  what: 'WebApp alert tables',
  journal: 'nimbus_alert_migrations',
  migrations: [
    {
      name: '0001_baseline',
      async up({ db: tx, dialect }) {
        const big = dialect === 'postgres' ? 'bigint' : 'integer';
        await tx.schema
          .createTable('nimbus_alert_signatures')
          .ifNotExists()
          .addColumn('endpoint_id', 'text', (c) => c.notNull())
          .addColumn('signature', 'text', (c) => c.notNull())
          .addColumn('first_seen', big, (c) => c.notNull())
          .addColumn('last_seen', big, (c) => c.notNull())
          .addPrimaryKeyConstraint('nimbus_alert_signatures_pk', ['endpoint_id', 'signature'])
          .execute();
        await tx.schema
          .createTable('nimbus_alert_deliveries')
          .ifNotExists()
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('subscription_id', 'text', (c) => c.notNull())
          .addColumn('alert_key', 'text', (c) => c.notNull())
          .addColumn('trigger', 'text', (c) => c.notNull())
          .addColumn('endpoint_id', 'text', (c) => c.notNull())
          .addColumn('payload_json', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('attempts', 'integer', (c) => c.notNull())
          .addColumn('next_attempt_at', big, (c) => c.notNull())
          .addColumn('lease_until', big, (c) => c.notNull())
          .addColumn('lease_owner', 'text')
          .addColumn('last_error', 'text')
          .addColumn('created_at', big, (c) => c.notNull())
          .addColumn('delivered_at', big)
          .addUniqueConstraint('nimbus_alert_deliveries_claim', ['subscription_id', 'alert_key'])
          .execute();
        await tx.schema
          .createTable('nimbus_alert_attempts')
          .ifNotExists()
          .addColumn('delivery_id', 'text', (c) => c.notNull())
          .addColumn('attempt', 'integer', (c) => c.notNull())
          .addColumn('at', big, (c) => c.notNull())
          .addColumn('ok', 'integer', (c) => c.notNull())
          .addColumn('error', 'text')
          .addColumn('duration_ms', 'integer', (c) => c.notNull())
          .addPrimaryKeyConstraint('nimbus_alert_attempts_pk', ['delivery_id', 'attempt'])
          .execute();
        await createThreadTables(tx, big);
      },
    },
  ],
};
