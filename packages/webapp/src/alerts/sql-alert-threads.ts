import type { Kysely } from 'kysely';
import type { AlertSnooze, AlertThread, AlertThreadStore } from './alert-thread.js';

export interface ThreadsTable {
  subscription_id: string;
  thread_key: string;
  endpoint_id: string;
  sequence: number;
  opened_at: number;
  last_sent_at: number;
  snapshot_json: string;
  resolved_at: number | null;
}
export interface SnoozesTable {
  endpoint_id: string;
  signature: string;
  until: number;
  by_user: string;
  comment: string | null;
  created_at: number;
}
export interface ThreadDatabase {
  nimbus_alert_threads: ThreadsTable;
  nimbus_alert_snoozes: SnoozesTable;
  nimbus_alert_deliveries: { subscription_id: string; created_at: number; trigger: string };
}

/** The two tables beside the deliveries (created with `if not exists`, like the others). */
export async function createThreadTables(
  tx: Kysely<ThreadDatabase>,
  big: 'bigint' | 'integer',
): Promise<void> {
  await tx.schema
    .createTable('nimbus_alert_threads')
    .ifNotExists()
    .addColumn('subscription_id', 'text', (c) => c.notNull())
    .addColumn('thread_key', 'text', (c) => c.notNull())
    .addColumn('endpoint_id', 'text', (c) => c.notNull())
    .addColumn('sequence', 'integer', (c) => c.notNull())
    .addColumn('opened_at', big, (c) => c.notNull())
    .addColumn('last_sent_at', big, (c) => c.notNull())
    .addColumn('snapshot_json', 'text', (c) => c.notNull())
    .addColumn('resolved_at', big)
    .addPrimaryKeyConstraint('nimbus_alert_threads_pk', ['subscription_id', 'thread_key'])
    .execute();
  await tx.schema
    .createTable('nimbus_alert_snoozes')
    .ifNotExists()
    .addColumn('endpoint_id', 'text', (c) => c.notNull())
    .addColumn('signature', 'text', (c) => c.notNull())
    .addColumn('until', big, (c) => c.notNull())
    .addColumn('by_user', 'text', (c) => c.notNull())
    .addColumn('comment', 'text')
    .addColumn('created_at', big, (c) => c.notNull())
    .addPrimaryKeyConstraint('nimbus_alert_snoozes_pk', ['endpoint_id', 'signature'])
    .execute();
}

const toThread = (r: ThreadsTable): AlertThread => ({
  subscriptionId: r.subscription_id,
  threadKey: r.thread_key,
  endpointId: r.endpoint_id,
  sequence: Number(r.sequence),
  openedAt: Number(r.opened_at),
  lastSentAt: Number(r.last_sent_at),
  snapshotJson: r.snapshot_json,
  resolvedAt: r.resolved_at === null ? null : Number(r.resolved_at),
});

/** Threads, snoozes and the rate-limit window on SQLite or PostgreSQL; a thread moves by a conditional write. */
export function sqlThreadStore(db: Kysely<ThreadDatabase>): AlertThreadStore {
  return {
    async listThreads() {
      return (await db.selectFrom('nimbus_alert_threads').selectAll().execute()).map(toThread);
    },
    async saveThread(t, expectedSequence) {
      const values = {
        subscription_id: t.subscriptionId,
        thread_key: t.threadKey,
        endpoint_id: t.endpointId,
        sequence: t.sequence,
        opened_at: t.openedAt,
        last_sent_at: t.lastSentAt,
        snapshot_json: t.snapshotJson,
        resolved_at: t.resolvedAt,
      };
      if (expectedSequence === 0) {
        const inserted = await db
          .insertInto('nimbus_alert_threads')
          .values(values)
          .onConflict((oc) => oc.columns(['subscription_id', 'thread_key']).doNothing())
          .executeTakeFirst();
        return Number(inserted.numInsertedOrUpdatedRows ?? 0n) > 0;
      }
      const updated = await db
        .updateTable('nimbus_alert_threads')
        .set(values)
        .where('subscription_id', '=', t.subscriptionId)
        .where('thread_key', '=', t.threadKey)
        .where('sequence', '=', expectedSequence)
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) === 1;
    },
    async countDeliveriesSince(subscriptionId, since) {
      const row = await db
        .selectFrom('nimbus_alert_deliveries')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('subscription_id', '=', subscriptionId)
        .where('created_at', '>=', since)
        .where('trigger', '<>', 'Test')
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async snooze(s: AlertSnooze) {
      const values = {
        endpoint_id: s.endpointId,
        signature: s.signature,
        until: s.until,
        by_user: s.by,
        comment: s.comment,
        created_at: s.createdAt,
      };
      await db
        .insertInto('nimbus_alert_snoozes')
        .values(values)
        .onConflict((oc) =>
          oc.columns(['endpoint_id', 'signature']).doUpdateSet({
            until: s.until,
            by_user: s.by,
            comment: s.comment,
            created_at: s.createdAt,
          }),
        )
        .execute();
    },
    async unsnooze(endpointId, signature) {
      const result = await db
        .deleteFrom('nimbus_alert_snoozes')
        .where('endpoint_id', '=', endpointId)
        .where('signature', '=', signature)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async listSnoozes(now) {
      const rows = await db.selectFrom('nimbus_alert_snoozes').selectAll().where('until', '>', now).execute();
      return rows.map((r) => ({
        endpointId: r.endpoint_id,
        signature: r.signature,
        until: Number(r.until),
        by: r.by_user,
        comment: r.comment,
        createdAt: Number(r.created_at),
      }));
    },
    async pruneThreads(before) {
      await db.deleteFrom('nimbus_alert_threads').where('resolved_at', '<', before).execute();
      await db.deleteFrom('nimbus_alert_snoozes').where('until', '<', before).execute();
    },
  };
}
