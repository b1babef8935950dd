import { type Kysely, sql } from 'kysely';
import { openWebAppDatabase, type WebAppDatabaseOptions } from '../sql/open-webapp-database.js';
import { migrateWebAppSchema } from '../sql/webapp-migrations.js';
import type {
  AlertDelivery,
  AlertStore,
  AlertTrigger,
  DeliveryAttempt,
  DeliveryStatus,
} from './alert-store.js';
import { ALERT_SCHEMA } from './sql-alert-migrations.js';
import {
  type SnoozesTable,
  sqlThreadStore,
  type ThreadDatabase,
  type ThreadsTable,
} from './sql-alert-threads.js';

interface SignaturesTable {
  endpoint_id: string;
  signature: string;
  first_seen: number;
  last_seen: number;
}
interface DeliveriesTable {
  id: string;
  subscription_id: string;
  alert_key: string;
  trigger: string;
  endpoint_id: string;
  payload_json: string;
  status: string;
  attempts: number;
  next_attempt_at: number;
  lease_until: number;
  lease_owner: string | null;
  last_error: string | null;
  created_at: number;
  delivered_at: number | null;
}
interface AttemptsTable {
  delivery_id: string;
  attempt: number;
  at: number;
  ok: number;
  error: string | null;
  duration_ms: number;
}
interface AlertDatabase {
  nimbus_alert_signatures: SignaturesTable;
  nimbus_alert_deliveries: DeliveriesTable;
  nimbus_alert_attempts: AttemptsTable;
  nimbus_alert_threads: ThreadsTable;
  nimbus_alert_snoozes: SnoozesTable;
}

export type SqlAlertStoreOptions = WebAppDatabaseOptions;

function toDelivery(row: DeliveriesTable): AlertDelivery {
  return {
    id: row.id,
    subscriptionId: row.subscription_id,
    alertKey: row.alert_key,
    trigger: row.trigger as AlertTrigger,
    endpointId: row.endpoint_id,
    payloadJson: row.payload_json,
    status: row.status as DeliveryStatus,
    attempts: Number(row.attempts),
    nextAttemptAt: Number(row.next_attempt_at),
    lastError: row.last_error,
    createdAt: Number(row.created_at),
    deliveredAt: row.delivered_at === null ? null : Number(row.delivered_at),
  };
}

const ACTIVE: DeliveryStatus[] = ['Pending', 'Retrying'];

/**
 * Alert state in three tables (`nimbus_alert_*`) on SQLite or PostgreSQL. The unique (subscription, alert key)
 * index is the claim that keeps several WebApp instances from raising one alert twice; a conditional update
 * of `lease_until` lets one of them send each delivery at a time.
 */
export function createSqlAlertStore(options: SqlAlertStoreOptions): AlertStore {
  const opened = openWebAppDatabase<AlertDatabase>(options, 'Alert store', {
    max: 2,
    applicationName: 'nimbus-alerts',
  });
  const { root, db } = opened;

  // The alert database holds the thread tables (and the deliveries the window counts); Kysely is invariant in it.
  const threads = sqlThreadStore(db as unknown as Kysely<ThreadDatabase>);

  return {
    ...threads,
    async initialize() {
      await migrateWebAppSchema(ALERT_SCHEMA, opened, options.dialect, {
        mode: options.migrationMode ?? 'AutoApply',
      });
    },

    async touchSignature(endpointId, signature, now, quietMs) {
      await db
        .insertInto('nimbus_alert_signatures')
        .values({ endpoint_id: endpointId, signature, first_seen: now, last_seen: now })
        .onConflict((oc) => oc.columns(['endpoint_id', 'signature']).doNothing())
        .execute();
      // One statement: a signature quiet for quietMs starts a new episode, decided against the row as locked.
      await db
        .updateTable('nimbus_alert_signatures')
        .set({
          first_seen: sql<number>`case when last_seen < ${now - quietMs} then ${now} else first_seen end`,
          last_seen: sql<number>`case when last_seen < ${now} then ${now} else last_seen end`,
        })
        .where('endpoint_id', '=', endpointId)
        .where('signature', '=', signature)
        .execute();
      const row = await db
        .selectFrom('nimbus_alert_signatures')
        .select('first_seen')
        .where('endpoint_id', '=', endpointId)
        .where('signature', '=', signature)
        .executeTakeFirstOrThrow();
      return Number(row.first_seen);
    },

    async claimDelivery(delivery) {
      const result = await db
        .insertInto('nimbus_alert_deliveries')
        .values({
          id: delivery.id,
          subscription_id: delivery.subscriptionId,
          alert_key: delivery.alertKey,
          trigger: delivery.trigger,
          endpoint_id: delivery.endpointId,
          payload_json: delivery.payloadJson,
          status: 'Pending',
          attempts: 0,
          next_attempt_at: delivery.createdAt,
          lease_until: 0,
          lease_owner: null,
          last_error: null,
          created_at: delivery.createdAt,
          delivered_at: null,
        })
        .onConflict((oc) => oc.columns(['subscription_id', 'alert_key']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
    },

    async leaseDue(owner, now, leaseMs, limit) {
      const candidates = await db
        .selectFrom('nimbus_alert_deliveries')
        .selectAll()
        .where('status', 'in', ACTIVE)
        .where('next_attempt_at', '<=', now)
        .where('lease_until', '<=', now)
        .orderBy('next_attempt_at')
        .limit(limit)
        .execute();
      const leased: AlertDelivery[] = [];
      for (const row of candidates) {
        const result = await db
          .updateTable('nimbus_alert_deliveries')
          .set({ lease_until: now + leaseMs, lease_owner: owner })
          .where('id', '=', row.id)
          .where('status', 'in', ACTIVE)
          .where('lease_until', '<=', now)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 1) leased.push(toDelivery(row));
      }
      return leased;
    },

    async recordAttempt(attempt, next) {
      await db
        .insertInto('nimbus_alert_attempts')
        .values({
          delivery_id: attempt.deliveryId,
          attempt: attempt.attempt,
          at: attempt.at,
          ok: attempt.ok ? 1 : 0,
          error: attempt.error,
          duration_ms: attempt.durationMs,
        })
        .execute();
      await db
        .updateTable('nimbus_alert_deliveries')
        .set({
          status: next.status,
          attempts: attempt.attempt,
          next_attempt_at: next.nextAttemptAt,
          delivered_at: next.deliveredAt,
          last_error: attempt.error,
          lease_until: 0,
          lease_owner: null,
        })
        .where('id', '=', attempt.deliveryId)
        .execute();
    },

    async listDeliveries(subscriptionId, limit) {
      const rows = await db
        .selectFrom('nimbus_alert_deliveries')
        .selectAll()
        .where('subscription_id', '=', subscriptionId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
      if (rows.length === 0) return [];
      const attempts = await db
        .selectFrom('nimbus_alert_attempts')
        .selectAll()
        .where(
          'delivery_id',
          'in',
          rows.map((r) => r.id),
        )
        .orderBy('attempt')
        .execute();
      return rows.map((row) => ({
        delivery: toDelivery(row),
        attempts: attempts
          .filter((a) => a.delivery_id === row.id)
          .map(
            (a): DeliveryAttempt => ({
              deliveryId: a.delivery_id,
              attempt: Number(a.attempt),
              at: Number(a.at),
              ok: Number(a.ok) === 1,
              error: a.error,
              durationMs: Number(a.duration_ms),
            }),
          ),
      }));
    },

    async prune(before) {
      const old = db
        .selectFrom('nimbus_alert_deliveries')
        .select('id')
        .where('status', 'in', ['Delivered', 'Failed'])
        .where('created_at', '<', before);
      await db.deleteFrom('nimbus_alert_attempts').where('delivery_id', 'in', old).execute();
      await db
        .deleteFrom('nimbus_alert_deliveries')
        .where('status', 'in', ['Delivered', 'Failed'])
        .where('created_at', '<', before)
        .execute();
      await db.deleteFrom('nimbus_alert_signatures').where('last_seen', '<', before).execute();
      await threads.pruneThreads(before);
    },

    async close() {
      await root.destroy();
    },
  };
}
