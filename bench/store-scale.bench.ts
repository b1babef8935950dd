// Operator reads on the PostgreSQL store at 10,000 and at 1,000,000 tracked events: endpoint status counts,
// first page of actionable (failed) events, blocked events of a session, lookup by event id and search by id.
// Prints the median time of each read at both sizes and the 1M/10k ratio (goal: <= 2).
// Rows are seeded with one INSERT … SELECT generate_series (count triggers off, counts rebuilt after).
// Run: npm run bench:store-scale   (env: BENCH_SCALE_SIZES=10000,1000000, NIMBUS_TEST_POSTGRES_URL)
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

if (!process.execArgv.some((arg) => arg.includes('conditions=source'))) {
  const self = fileURLToPath(import.meta.url);
  const run = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', self], {
    stdio: 'inherit',
  });
  process.exit(run.status ?? 1);
}

const { MessageType, silentLogger } = await import('@nimbus/core');
const { ResolutionStatus, toUnresolvedEvent } = await import('@nimbus/message-store');
const { createSqlMessageStore } = await import('@nimbus/message-store-sql');
const { createTemporaryDatabase, postgresUnavailableReason } = await import('@nimbus/testing/postgres');
const pg = (await import('pg')).default;

const SIZES = (process.env.BENCH_SCALE_SIZES ?? '10000,1000000').split(',').map(Number);
const ENDPOINT = 'scale';
const SESSIONS = 1000;
const REPEATS = 30;

const unavailable = await postgresUnavailableReason();
if (unavailable !== null) {
  console.log(`store-scale bench skipped: PostgreSQL unreachable (${unavailable})`);
  process.exit(process.env.CI === 'true' ? 1 : 0);
}

/** A stored document with placeholders the seeding statement fills per row. */
const template = JSON.stringify(
  toUnresolvedEvent(
    { endpointId: ENDPOINT, eventId: '__EVENT__', sessionId: '__SESSION__' },
    ResolutionStatus.Completed,
    {
      enqueuedTimeUtc: new Date(),
      messageType: MessageType.ResolutionResponse,
      lastMessageId: 'm-__EVENT__',
      eventTypeId: 'Scale.Changed',
      messageContent: {
        eventContent: { eventTypeId: 'Scale.Changed', eventJson: '{"n":1}' },
        errorContent: null,
      },
    },
    new Date(),
  ),
);

async function median(read: () => Promise<unknown>): Promise<number> {
  await read();
  const times: number[] = [];
  for (let i = 0; i < REPEATS; i++) {
    const started = performance.now();
    await read();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

async function measureAt(size: number): Promise<Record<string, number>> {
  const database = await createTemporaryDatabase('nimbus_store_scale');
  const store = await createSqlMessageStore({
    dialect: 'postgres',
    connectionString: database.url,
    retentionSweep: false,
    logger: silentLogger,
    env: {},
  });
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const seeded = performance.now();
    // Bulk seeding without the per-row count triggers (one counter row updated a million times in one
    // transaction would dominate the seed), then the counts are rebuilt from the rows as migration 0004 does.
    await client.query('begin');
    await client.query("set local session_replication_role = 'replica'");
    // 1% Failed, 1% Pending (blocking their sessions), the rest Completed; spread over 1,000 sessions.
    await client.query(
      `insert into nimbus.unresolved_events (endpoint_id, event_id, session_id, status, message_type,
         last_message_id, endpoint_role, updated_at, enqueued_time, deleted, document_json)
       select $1, 'e' || g, 's' || (g % ${SESSIONS}),
         case when g % 100 = 0 then 'Failed' when g % 100 = 1 then 'Pending' else 'Completed' end,
         'ResolutionResponse', 'm-e' || g, 'Subscriber', 1700000000000 + g, 1700000000000 + g, 0,
         replace(replace($2, '__EVENT__', 'e' || g), '__SESSION__', 's' || (g % ${SESSIONS}))
       from generate_series(1, $3::int) g`,
      [ENDPOINT, template, size],
    );
    await client.query(
      `insert into nimbus.endpoint_status_counts (endpoint_id, status, live_count)
       select endpoint_id, status, count(*) from nimbus.unresolved_events where deleted = 0 group by 1, 2`,
    );
    await client.query('commit');
    await client.query('analyze nimbus.unresolved_events');
    const seedSeconds = (performance.now() - seeded) / 1000;
    const probe = `e${Math.floor(size / 2) + 7}`;
    const result = {
      'endpoint status counts': await median(() => store.downloadEndpointStateCount(ENDPOINT)),
      'first page of failed events': await median(() =>
        store.downloadEndpointStatePaging({ endpointId: ENDPOINT, pageSize: 50 }),
      ),
      'blocked events of a session': await median(() =>
        store.getBlockedEventsOnSession({ endpointId: ENDPOINT, sessionId: 's1', skip: 0, take: 50 }),
      ),
      'lookup by event id': await median(() => store.getEvent({ endpointId: ENDPOINT, eventId: probe })),
      'search by id': await median(() =>
        store.getEventsByFilter({ filter: { endpointId: ENDPOINT, eventId: probe }, maxItems: 50 }),
      ),
    };
    console.log(`seeded ${size.toLocaleString('en-US')} rows in ${seedSeconds.toFixed(1)} s`);
    return result;
  } finally {
    await client.end();
    await store.close();
    await database.drop();
  }
}

const results = [];
for (const size of SIZES) results.push({ size, reads: await measureAt(size) });
const [small, large] = results;
console.log(`\nmedian of ${REPEATS} reads, ms`);
console.log(
  `${'read'.padEnd(30)}${SIZES.map((s) => s.toLocaleString('en-US').padStart(12)).join('')}   ratio`,
);
for (const name of Object.keys(small!.reads)) {
  const a = small!.reads[name]!;
  const b = large?.reads[name];
  const cells = results.map((r) => r.reads[name]!.toFixed(2).padStart(12)).join('');
  console.log(`${name.padEnd(30)}${cells}   ${b === undefined ? '' : `${(b / a).toFixed(2)}x`}`);
}
