import { openPostgresPool, openSqliteDatabase } from '@nimbus/sql';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type { BulkJobStore, StoredBulkJob } from './bulk-job-store.js';

interface BulkJobsTable {
  job_id: string;
  action: string;
  endpoint_id: string;
  total: number;
  processed: number;
  succeeded: number;
  failed: number;
  errors_json: string;
  done: number;
  owner: string;
  lease_until: number;
  created_at: number;
}

interface BulkJobDatabase {
  nimbus_bulk_jobs: BulkJobsTable;
}

export type SqlBulkJobStoreOptions =
  | {
      readonly dialect: 'sqlite';
      /** A file of its own (better-sqlite3 waits for locks synchronously; one writer per file per process). */
      readonly filename: string;
    }
  | { readonly dialect: 'postgres'; readonly connectionString: string; readonly schema?: string };

function toJob(row: BulkJobsTable): StoredBulkJob {
  return {
    jobId: row.job_id,
    action: row.action,
    endpointId: row.endpoint_id,
    total: Number(row.total),
    processed: Number(row.processed),
    succeeded: Number(row.succeeded),
    failed: Number(row.failed),
    errors: JSON.parse(row.errors_json) as StoredBulkJob['errors'],
    done: Number(row.done) === 1,
    owner: row.owner,
    leaseUntil: Number(row.lease_until),
    createdAt: Number(row.created_at),
  };
}

function toRow(job: StoredBulkJob): BulkJobsTable {
  return {
    job_id: job.jobId,
    action: job.action,
    endpoint_id: job.endpointId,
    total: job.total,
    processed: job.processed,
    succeeded: job.succeeded,
    failed: job.failed,
    errors_json: JSON.stringify(job.errors),
    done: job.done ? 1 : 0,
    owner: job.owner,
    lease_until: job.leaseUntil,
    created_at: job.createdAt,
  };
}

/** Bulk jobs in one table, `nimbus_bulk_jobs`, on SQLite or PostgreSQL (the store's database, its schema). */
export function createSqlBulkJobStore(options: SqlBulkJobStoreOptions): BulkJobStore {
  const schema = options.dialect === 'postgres' ? (options.schema ?? 'nimbus') : null;
  if (schema !== null && !/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema))
    throw new Error(`Bulk job store schema '${schema}' is not a safe SQL identifier.`);
  const root = new Kysely<BulkJobDatabase>({
    dialect:
      options.dialect === 'sqlite'
        ? new SqliteDialect({ database: openSqliteDatabase(options.filename) })
        : new PostgresDialect({
            pool: openPostgresPool({
              connectionString: options.connectionString,
              max: 2,
              applicationName: 'nimbus-bulk-jobs',
            }),
          }),
  });
  const db = schema === null ? root : root.withSchema(schema);
  return {
    async initialize() {
      if (schema !== null) await root.schema.createSchema(schema).ifNotExists().execute();
      const integer = options.dialect === 'postgres' ? 'bigint' : 'integer';
      await db.schema
        .createTable('nimbus_bulk_jobs')
        .ifNotExists()
        .addColumn('job_id', 'text', (c) => c.primaryKey())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('endpoint_id', 'text', (c) => c.notNull())
        .addColumn('total', 'integer', (c) => c.notNull())
        .addColumn('processed', 'integer', (c) => c.notNull())
        .addColumn('succeeded', 'integer', (c) => c.notNull())
        .addColumn('failed', 'integer', (c) => c.notNull())
        .addColumn('errors_json', 'text', (c) => c.notNull())
        .addColumn('done', 'integer', (c) => c.notNull())
        .addColumn('owner', 'text', (c) => c.notNull())
        .addColumn('lease_until', integer, (c) => c.notNull())
        .addColumn('created_at', integer, (c) => c.notNull())
        .execute();
    },
    async create(job) {
      await db.insertInto('nimbus_bulk_jobs').values(toRow(job)).execute();
    },
    async save(job) {
      const { job_id, ...progress } = toRow(job);
      await db.updateTable('nimbus_bulk_jobs').set(progress).where('job_id', '=', job_id).execute();
    },
    async get(jobId) {
      const row = await db
        .selectFrom('nimbus_bulk_jobs')
        .selectAll()
        .where('job_id', '=', jobId)
        .executeTakeFirst();
      return row ? toJob(row) : null;
    },
    async pruneFinished(before) {
      const result = await db
        .deleteFrom('nimbus_bulk_jobs')
        .where('done', '=', 1)
        .where('created_at', '<', before)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async close() {
      await root.destroy();
    },
  };
}
