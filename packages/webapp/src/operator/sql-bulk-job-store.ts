import { type Kysely, sql } from 'kysely';
import { openWebAppDatabase, type WebAppDatabaseOptions } from '../sql/open-webapp-database.js';
import { migrateWebAppSchema } from '../sql/webapp-migrations.js';
import type {
  BulkItemOutcome,
  BulkJobItem,
  BulkJobProgress,
  BulkJobStarter,
  BulkJobState,
  BulkJobStore,
  StoredBulkJob,
} from './bulk-job-store.js';
import { BULK_JOB_SCHEMA, type BulkJobDatabase, type BulkJobsTable } from './sql-bulk-job-tables.js';
import { yieldToEventLoop } from './yield-to-event-loop.js';

export type SqlBulkJobStoreOptions = WebAppDatabaseOptions;

/** Items per insert statement (8 columns each, inside both engines' parameter limits). */
const ITEMS_PER_STATEMENT = 500;

function toJob(row: BulkJobsTable): StoredBulkJob {
  const done = Number(row.done) === 1;
  return {
    jobId: row.job_id,
    action: row.action as StoredBulkJob['action'],
    endpointId: row.endpoint_id,
    // Jobs stored before these columns existed act on one endpoint and were started from a list of ids.
    endpointIds: row.endpoint_ids_json ? (JSON.parse(row.endpoint_ids_json) as string[]) : [row.endpoint_id],
    filter: row.filter_json ? (JSON.parse(row.filter_json) as Record<string, unknown>) : {},
    createdBy: row.created_by ?? '',
    startedBy: row.started_by_json ? (JSON.parse(row.started_by_json) as BulkJobStarter) : null,
    comment: row.comment ?? null,
    total: Number(row.total),
    processed: Number(row.processed),
    succeeded: Number(row.succeeded),
    refused: Number(row.refused ?? 0),
    failed: Number(row.failed),
    errors: JSON.parse(row.errors_json) as StoredBulkJob['errors'],
    state: (row.state as BulkJobState | null) ?? (done ? 'completed' : 'running'),
    cancelRequested: Number(row.cancel_requested ?? 0) === 1,
    owner: row.owner,
    leaseUntil: Number(row.lease_until),
    createdAt: Number(row.created_at),
    finishedAt: row.finished_at === null || row.finished_at === undefined ? null : Number(row.finished_at),
  };
}

function progressColumns(progress: BulkJobProgress) {
  return {
    processed: progress.processed,
    succeeded: progress.succeeded,
    refused: progress.refused,
    failed: progress.failed,
    errors_json: JSON.stringify(progress.errors),
    done: progress.state === 'running' ? 0 : 1,
    state: progress.state,
    owner: progress.owner,
    lease_until: progress.leaseUntil,
    finished_at: progress.finishedAt,
  };
}

/**
 * Bulk jobs in `nimbus_bulk_jobs` and their events in `nimbus_bulk_job_items`, on SQLite or PostgreSQL (the
 * store's database, its schema). Tables from an older version get the new columns when opened.
 */
export function createSqlBulkJobStore(options: SqlBulkJobStoreOptions): BulkJobStore {
  const opened = openWebAppDatabase<BulkJobDatabase>(options, 'Bulk job store', {
    max: 2,
    applicationName: 'nimbus-bulk-jobs',
  });
  const { root, db, schema } = opened;
  const scoped = (executor: Kysely<BulkJobDatabase>) =>
    schema === null ? executor : executor.withSchema(schema);
  const setOutcome = (
    jobId: string,
    position: number,
    outcome: BulkItemOutcome,
    detail: { message: string | null; messageId: string | null },
  ) =>
    db
      .updateTable('nimbus_bulk_job_items')
      .set({ outcome, message: detail.message, message_id: detail.messageId })
      .where('job_id', '=', jobId)
      .where('position', '=', position);
  const insertItems = async (
    tx: Kysely<BulkJobDatabase>,
    jobId: string,
    items: readonly Omit<BulkJobItem, 'position'>[],
  ) => {
    for (let from = 0; from < items.length; from += ITEMS_PER_STATEMENT) {
      const rows = items.slice(from, from + ITEMS_PER_STATEMENT).map((item, i) => ({
        job_id: jobId,
        position: from + i,
        endpoint_id: item.endpointId,
        event_id: item.eventId,
        session_id: item.sessionId,
        outcome: item.outcome,
        message: item.message,
        message_id: item.messageId,
      }));
      await tx.insertInto('nimbus_bulk_job_items').values(rows).execute();
      await yieldToEventLoop();
    }
  };
  return {
    initialize: async () => {
      await migrateWebAppSchema(BULK_JOB_SCHEMA, opened, options.dialect, {
        mode: options.migrationMode ?? 'AutoApply',
      });
    },
    async create(job, items) {
      await root.transaction().execute(async (trx) => {
        const tx = scoped(trx);
        await tx
          .insertInto('nimbus_bulk_jobs')
          .values({
            job_id: job.jobId,
            action: job.action,
            endpoint_id: job.endpointId,
            endpoint_ids_json: JSON.stringify(job.endpointIds),
            filter_json: JSON.stringify(job.filter),
            created_by: job.createdBy,
            started_by_json: job.startedBy ? JSON.stringify(job.startedBy) : null,
            comment: job.comment,
            total: job.total,
            created_at: job.createdAt,
            cancel_requested: job.cancelRequested ? 1 : 0,
            ...progressColumns(job),
          })
          .execute();
        await insertItems(tx, job.jobId, items);
      });
    },
    async addItems(jobId, items) {
      await root.transaction().execute(async (trx) => {
        const tx = scoped(trx);
        await insertItems(tx, jobId, items);
        await tx
          .updateTable('nimbus_bulk_jobs')
          .set({ total: items.length })
          .where('job_id', '=', jobId)
          .execute();
      });
    },
    async save(progress) {
      await db
        .updateTable('nimbus_bulk_jobs')
        .set(progressColumns(progress))
        .where('job_id', '=', progress.jobId)
        .execute();
    },
    async get(jobId) {
      const row = await db
        .selectFrom('nimbus_bulk_jobs')
        .selectAll()
        .where('job_id', '=', jobId)
        .executeTakeFirst();
      return row ? toJob(row) : null;
    },
    async list({ limit, before }) {
      let query = db.selectFrom('nimbus_bulk_jobs').selectAll();
      if (before) {
        const anchor = await this.get(before);
        if (anchor)
          query = query.where((eb) =>
            eb.or([
              eb('created_at', '<', anchor.createdAt),
              eb.and([eb('created_at', '=', anchor.createdAt), eb('job_id', '<', anchor.jobId)]),
            ]),
          );
      }
      const rows = await query.orderBy('created_at', 'desc').orderBy('job_id', 'desc').limit(limit).execute();
      return rows.map(toJob);
    },
    async listRunning() {
      const rows = await db
        .selectFrom('nimbus_bulk_jobs')
        .selectAll()
        .where('done', '=', 0)
        .orderBy('created_at')
        .execute();
      return rows.map(toJob).filter((job) => job.state === 'running');
    },
    async items(jobId, { offset, limit, outcome }) {
      let query = db.selectFrom('nimbus_bulk_job_items').selectAll().where('job_id', '=', jobId);
      if (outcome) query = query.where('outcome', '=', outcome);
      const rows = await query.orderBy('position').limit(limit).offset(offset).execute();
      return rows.map(
        (r): BulkJobItem => ({
          position: Number(r.position),
          endpointId: r.endpoint_id,
          eventId: r.event_id,
          sessionId: r.session_id,
          outcome: r.outcome as BulkItemOutcome,
          message: r.message,
          messageId: r.message_id,
        }),
      );
    },
    async setItemOutcome(jobId, position, outcome, detail) {
      await setOutcome(jobId, position, outcome, detail).execute();
    },
    async markRefused(jobId, position, reason) {
      return root.transaction().execute(async (trx) => {
        const tx = scoped(trx);
        const changed = await tx
          .updateTable('nimbus_bulk_job_items')
          .set({ outcome: 'refused', message: reason })
          .where('job_id', '=', jobId)
          .where('position', '=', position)
          .where('outcome', '=', 'sent')
          .executeTakeFirst();
        if (Number(changed.numUpdatedRows) !== 1) return false;
        await tx
          .updateTable('nimbus_bulk_jobs')
          .set({ succeeded: sql`succeeded - 1`, refused: sql`refused + 1` })
          .where('job_id', '=', jobId)
          .execute();
        return true;
      });
    },
    async requestCancel(jobId) {
      await db
        .updateTable('nimbus_bulk_jobs')
        .set({ cancel_requested: 1 })
        .where('job_id', '=', jobId)
        .where('state', '=', 'running')
        .execute();
    },
    async claim(jobId, owner, leaseUntil, now) {
      const result = await db
        .updateTable('nimbus_bulk_jobs')
        .set({ owner, lease_until: leaseUntil })
        .where('job_id', '=', jobId)
        .where('state', '=', 'running')
        .where('lease_until', '<', now)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async pruneFinished(before) {
      return root.transaction().execute(async (trx) => {
        const tx = scoped(trx);
        const old = tx
          .selectFrom('nimbus_bulk_jobs')
          .select('job_id')
          .where('done', '=', 1)
          .where('created_at', '<', before);
        await tx.deleteFrom('nimbus_bulk_job_items').where('job_id', 'in', old).execute();
        const result = await tx
          .deleteFrom('nimbus_bulk_jobs')
          .where('done', '=', 1)
          .where('created_at', '<', before)
          .executeTakeFirst();
        return Number(result.numDeletedRows);
      });
    },
    async close() {
      await root.destroy();
    },
  };
}
