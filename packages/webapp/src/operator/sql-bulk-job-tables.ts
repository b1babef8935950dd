import type { Kysely } from 'kysely';
import { addMissingColumns, type WebAppSchema } from '../sql/webapp-migrations.js';

export interface BulkJobsTable {
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
  // Added for filter jobs (issue 15); null on rows written by an older WebApp.
  endpoint_ids_json: string | null;
  filter_json: string | null;
  created_by: string | null;
  comment: string | null;
  refused: number | null;
  state: string | null;
  cancel_requested: number | null;
  finished_at: number | null;
  // Added for resuming after a restart (issue 26).
  started_by_json: string | null;
}

export interface BulkJobItemsTable {
  job_id: string;
  position: number;
  endpoint_id: string;
  event_id: string;
  session_id: string;
  outcome: string;
  message: string | null;
  message_id: string | null;
}

export interface BulkJobDatabase {
  nimbus_bulk_jobs: BulkJobsTable;
  nimbus_bulk_job_items: BulkJobItemsTable;
}

/** Columns added to a `nimbus_bulk_jobs` table created by an older WebApp, with their types. */
const ADDED_COLUMNS = {
  endpoint_ids_json: 'text',
  filter_json: 'text',
  created_by: 'text',
  comment: 'text',
  refused: 'integer',
  state: 'text',
  cancel_requested: 'integer',
  finished_at: 'bigint',
  started_by_json: 'text',
} as const;

/**
 * The bulk job tables' migrations (journal `nimbus_bulk_job_migrations`). `0001_baseline` is the schema the WebApp
 * created at open before the journal existed, written so that it accepts those tables: it creates what is missing
 * and adds the columns a table from an older WebApp lacks.
 */
export const BULK_JOB_SCHEMA: WebAppSchema = {
  what: 'WebApp bulk job tables',
  journal: 'nimbus_bulk_job_migrations',
  migrations: [
    {
      name: '0001_baseline',
      async up(context) {
        const db = context.db as Kysely<BulkJobDatabase>;
        const integer = context.dialect === 'postgres' ? 'bigint' : 'integer';
        const typeOf = (type: string) =>
          (type === 'bigint' ? integer : type) as 'text' | 'integer' | 'bigint';
        let jobs = db.schema
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
          .addColumn('created_at', integer, (c) => c.notNull());
        for (const [name, type] of Object.entries(ADDED_COLUMNS)) jobs = jobs.addColumn(name, typeOf(type));
        await jobs.execute();
        await addMissingColumns(
          context,
          'nimbus_bulk_jobs',
          Object.entries(ADDED_COLUMNS).map(([name, type]) => [name, typeOf(type)] as const),
        );
        await db.schema
          .createTable('nimbus_bulk_job_items')
          .ifNotExists()
          .addColumn('job_id', 'text', (c) => c.notNull())
          .addColumn('position', 'integer', (c) => c.notNull())
          .addColumn('endpoint_id', 'text', (c) => c.notNull())
          .addColumn('event_id', 'text', (c) => c.notNull())
          .addColumn('session_id', 'text', (c) => c.notNull())
          .addColumn('outcome', 'text', (c) => c.notNull())
          .addColumn('message', 'text')
          .addColumn('message_id', 'text')
          .addPrimaryKeyConstraint('pk_nimbus_bulk_job_items', ['job_id', 'position'])
          .execute();
        await db.schema
          .createIndex('ix_nimbus_bulk_job_items_outcome')
          .ifNotExists()
          .on('nimbus_bulk_job_items')
          .columns(['job_id', 'outcome', 'position'])
          .execute();
        await db.schema
          .createIndex('ix_nimbus_bulk_jobs_created')
          .ifNotExists()
          .on('nimbus_bulk_jobs')
          .columns(['created_at', 'job_id'])
          .execute();
      },
    },
  ],
};
