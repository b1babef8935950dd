// Store at scale: the operator reads on the PostgreSQL message store with 10,000 and with 1,000,000 tracked
// events, and the ratio of their costs (goal: at most 2x for each read). Rows are seeded with SQL (one
// INSERT … SELECT from generate_series, cloning rows written through the store for each status), then ANALYZEd.
// Run: npm run bench:store-scale [-- --quick]   (quick: 10,000 vs 100,000; env BENCH_LARGE, BENCH_REPEATS,
// NIMBUS_TEST_POSTGRES_URL). The store reads live in `reads` below, the one place to port to a new store contract.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

if (!process.execArgv.some((arg) => arg.includes('conditions=source'))) {
  const self = fileURLToPath(import.meta.url);
  const run = spawnSync(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', self, ...process.argv.slice(2)],
    { stdio: 'inherit' },
  );
  process.exit(run.status ?? 1);
}

const { MessageType, silentLogger } = await import('@nimbus/core');
const { createSqlMessageStore } = await import('@nimbus/message-store-sql');
const { createTemporaryDatabase, postgresUnavailableReason } = await import('@nimbus/testing/postgres');
const pg = (await import('pg')).default;
type Store = import('@nimbus/message-store').OpenMessageStore;

const quick = process.argv.includes('--quick');
const SMALL = 10_000;
const LARGE = Number(process.env.BENCH_LARGE ?? (quick ? 100_000 : 1_000_000));
const REPEATS = Number(process.env.BENCH_REPEATS ?? (quick ? 10 : 30));
const ENDPOINTS = 5;
const SESSIONS = 10_000;
const SCHEMA = 'nimbus';

const unavailable = await postgresUnavailableReason();
if (unavailable !== null) {
  console.log(`store-scale bench skipped: PostgreSQL unreachable (${unavailable})`);
  process.exit(process.env.CI === 'true' ? 1 : 0);
}

function content(i: number) {
  return {
    enqueuedTimeUtc: new Date(),
    messageType: MessageType.EventRequest,
    lastMessageId: `m-${i}`,
    eventTypeId: 'Bench.CustomerChanged',
    messageContent: {
      eventContent: { eventTypeId: 'Bench.CustomerChanged', eventJson: '{"customerId":"c-1","name":"x"}' },
      errorContent: null,
    },
  };
}

/** The operator reads measured, through the store contract. */
const reads = {
  'endpoint status counts': (store: Store) => store.downloadEndpointStateCount('Endpoint1'),
  'first page of failed events': (store: Store) =>
    store.getEventsByFilter({
      filter: { endpointId: 'Endpoint1', resolutionStatus: ['Failed'] },
      maxItems: 50,
    }),
  'blocked sessions (actionable page)': (store: Store) =>
    store.downloadEndpointStatePaging({ endpointId: 'Endpoint1', pageSize: 50 }),
  'blocked events on one session': (store: Store, g: number) =>
    store.getBlockedEventsOnSession({
      endpointId: `Endpoint${g % ENDPOINTS}`,
      sessionId: `s-${g % SESSIONS}`,
      skip: 0,
      take: 50,
    }),
  'lookup by event id': (store: Store, g: number) =>
    store.getEvent({ endpointId: `Endpoint${g % ENDPOINTS}`, eventId: `ev-${g}` }),
  'search by event id': (store: Store, g: number) =>
    store.getEventsByFilter({ filter: { eventId: `ev-${g}` }, maxItems: 50 }),
  // Reads every failed row's index entry (5 % of the rows): it grows with the failures, not the total.
  'failure groups of one endpoint': (store: Store) => store.getFailureGroups({ endpointIds: ['Endpoint1'] }),
  'first page of a failure group': (store: Store) =>
    store.getEventsByFilter({
      filter: { endpointId: 'Endpoint1', failureSignature: 'Error: ' },
      maxItems: 50,
    }),
} as const;
type ReadName = keyof typeof reads;

/** Status of seeded row g: 90 % Completed, 5 % Failed, 3 % Pending, 2 % Deferred. */
const STATUS_CASE = `CASE WHEN g % 100 < 90 THEN 'Completed' WHEN g % 100 < 95 THEN 'Failed'
  WHEN g % 100 < 98 THEN 'Pending' ELSE 'Deferred' END`;

async function seedTemplates(store: Store): Promise<void> {
  for (const [i, status] of ['Completed', 'Failed', 'Pending', 'Deferred'].entries()) {
    await store.writeStatus({
      key: { endpointId: 'Endpoint0', eventId: `tmpl-${status}`, sessionId: 'tmpl-session' },
      status: status as import('@nimbus/message-store').ResolutionStatus,
      content: content(i),
    });
  }
}

/** Clones the template rows into rows `from`..`to` (event ev-g, session s-(g % SESSIONS), endpoint g % 5). */
async function seed(pool: import('pg').Pool, from: number, to: number): Promise<void> {
  const { rows } = await pool.query(
    `SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'unresolved_events'
     ORDER BY ordinal_position`,
    [SCHEMA],
  );
  const replaced: Record<string, string> = {
    event_id: `'ev-' || g`,
    session_id: `'s-' || (g % ${SESSIONS})`,
    endpoint_id: `'Endpoint' || (g % ${ENDPOINTS})`,
    updated_at: `t.updated_at + g`,
    enqueued_time: `t.enqueued_time + g`,
    document_json: `replace(replace(replace(t.document_json, t.event_id, 'ev-' || g), 'tmpl-session', 's-' || (g % ${SESSIONS})),
      '"Endpoint0"', '"Endpoint' || (g % ${ENDPOINTS}) || '"')`,
  };
  const columns = rows.map((row) => String(row.column_name)).filter((name) => name !== 'id');
  await pool.query(
    `INSERT INTO ${SCHEMA}.unresolved_events (${columns.join(', ')})
     SELECT ${columns.map((name) => replaced[name] ?? `t.${name}`).join(', ')}
     FROM generate_series($1::bigint, $2::bigint) AS g
     JOIN ${SCHEMA}.unresolved_events t ON t.event_id = 'tmpl-' || ${STATUS_CASE}`,
    [from, to],
  );
  await pool.query(`ANALYZE ${SCHEMA}.unresolved_events`);
}

/** Median milliseconds of `REPEATS` calls of each read (after warm-up calls). */
async function measure(store: Store, size: number): Promise<Map<ReadName, number>> {
  const result = new Map<ReadName, number>();
  for (const [name, read] of Object.entries(reads) as [
    ReadName,
    (s: Store, g: number) => Promise<unknown>,
  ][]) {
    for (let i = 0; i < 3; i++) await read(store, 1 + ((i * 7919) % size));
    const times: number[] = [];
    for (let i = 0; i < REPEATS; i++) {
      const g = 1 + ((i * 104_729) % size);
      const started = performance.now();
      await read(store, g);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    result.set(name, times[Math.floor(times.length / 2)]!);
  }
  return result;
}

const database = await createTemporaryDatabase('nimbus_bench_store_scale');
const store = await createSqlMessageStore({
  dialect: 'postgres',
  connectionString: database.url,
  retentionSweep: false,
  logger: silentLogger,
  env: {},
});
const pool = new pg.Pool({ connectionString: database.url, max: 2 });
try {
  console.log(
    `store-scale bench (PostgreSQL): operator reads at ${SMALL} and ${LARGE} tracked events, median of ${REPEATS}`,
  );
  await seedTemplates(store);
  let started = Date.now();
  await seed(pool, 1, SMALL);
  console.log(`  seeded ${SMALL} rows in ${Date.now() - started} ms`);
  const small = await measure(store, SMALL);
  started = Date.now();
  await seed(pool, SMALL + 1, LARGE);
  console.log(`  seeded ${LARGE - SMALL} more rows in ${Date.now() - started} ms`);
  const large = await measure(store, LARGE);
  console.log(
    `\n  ${'read'.padEnd(36)} ${String(SMALL).padStart(9)} ${String(LARGE).padStart(10)}   ratio (goal <= 2)`,
  );
  for (const name of Object.keys(reads) as ReadName[]) {
    const a = small.get(name)!;
    const b = large.get(name)!;
    console.log(
      `  ${name.padEnd(36)} ${a.toFixed(2).padStart(7)} ms ${b.toFixed(2).padStart(8)} ms   ${(b / a).toFixed(2)}x${b / a > 2 ? '  (missed)' : ''}`,
    );
  }
} finally {
  await pool.end();
  await store.close();
  await database.drop();
}
