import { type Kysely, sql } from 'kysely';

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
 * Creates the two tables, and adds the columns a table from an older WebApp lacks (several instances may
 * start at once: a column another one added meanwhile is fine).
 */
export async function ensureBulkJobTables(
  root: Kysely<BulkJobDatabase>,
  db: Kysely<BulkJobDatabase>,
  dialect: 'sqlite' | 'postgres',
  schema: string | null,
): Promise<void> {
  if (schema !== null) await root.schema.createSchema(schema).ifNotExists().execute();
  const integer = dialect === 'postgres' ? 'bigint' : 'integer';
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
  for (const [name, type] of Object.entries(ADDED_COLUMNS))
    jobs = jobs.addColumn(name, type === 'bigint' ? integer : type);
  await jobs.execute();
  const existing = await columnsOf(root, dialect, schema);
  for (const [name, type] of Object.entries(ADDED_COLUMNS)) {
    if (existing.has(name)) continue;
    try {
      await db.schema
        .alterTable('nimbus_bulk_jobs')
        .addColumn(name, type === 'bigint' ? integer : type)
        .execute();
    } catch (error) {
      if (!(await columnsOf(root, dialect, schema)).has(name)) throw error;
    }
  }
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
}

async function columnsOf(
  root: Kysely<BulkJobDatabase>,
  dialect: 'sqlite' | 'postgres',
  schema: string | null,
): Promise<Set<string>> {
  const rows =
    dialect === 'sqlite'
      ? await sql<{ name: string }>`select name from pragma_table_info('nimbus_bulk_jobs')`.execute(root)
      : await sql<{ name: string }>`select column_name as name from information_schema.columns
          where table_schema = ${schema} and table_name = 'nimbus_bulk_jobs'`.execute(root);
  return new Set(rows.rows.map((r) => r.name));
}
