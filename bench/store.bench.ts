// Store throughput per provider (memory, SQLite, PostgreSQL): guarded status writes/s and the main reads/s.
// Every phase is time-boxed (BENCH_STORE_PHASE_MS, default 1500 ms), so the whole run stays under a minute.
// Run: npm run bench:store   (env: BENCH_PROVIDERS=memory,sqlite,postgres, NIMBUS_TEST_POSTGRES_URL)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ResolutionStatus } from '@nimbus/message-store';

// Workspace packages resolve to their TypeScript sources under the `source` export condition.
if (!process.execArgv.some((arg) => arg.includes('conditions=source'))) {
  const self = fileURLToPath(import.meta.url);
  const run = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', self], {
    stdio: 'inherit',
  });
  process.exit(run.status ?? 1);
}

const { MessageType, silentLogger } = await import('@nimbus/core');
const { createMemoryMessageStore } = await import('@nimbus/message-store');
const { createSqlMessageStore } = await import('@nimbus/message-store-sql');
const { createTemporaryDatabase, postgresUnavailableReason } = await import('@nimbus/testing/postgres');

type Store = import('@nimbus/message-store').OpenMessageStore;

const PHASE_MS = Number(process.env.BENCH_STORE_PHASE_MS ?? 1500);
const PROVIDERS = (process.env.BENCH_PROVIDERS ?? 'memory,sqlite,postgres').split(',').map((p) => p.trim());
const CONCURRENCY = 8;
const ENDPOINT = 'bench-endpoint';
const SEEDED_ROWS = 2000;
const PAYLOAD = JSON.stringify({ customer: 'x'.repeat(512) });

interface Opened {
  readonly store: Store;
  dispose(): Promise<void>;
}

const providers: Record<string, () => Promise<Opened | string>> = {
  async memory() {
    const store = createMemoryMessageStore({ env: {} });
    return { store, dispose: () => store.close() };
  },
  async sqlite() {
    const dir = mkdtempSync(join(tmpdir(), 'nimbus-store-bench-'));
    const store = await createSqlMessageStore({
      dialect: 'sqlite',
      filename: join(dir, 'store.db'),
      retentionSweep: false,
      logger: silentLogger,
      env: {},
    });
    return {
      store,
      async dispose() {
        await store.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
  async postgres() {
    const unavailable = await postgresUnavailableReason();
    if (unavailable !== null) return `PostgreSQL unreachable (${unavailable})`;
    const database = await createTemporaryDatabase('nimbus_store_bench');
    const store = await createSqlMessageStore({
      dialect: 'postgres',
      connectionString: database.url,
      poolSize: CONCURRENCY,
      retentionSweep: false,
      logger: silentLogger,
      env: {},
    });
    return {
      store,
      async dispose() {
        await store.close();
        await database.drop();
      },
    };
  },
};

function request(i: number, messageType: import('@nimbus/core').MessageType = MessageType.EventRequest) {
  return {
    enqueuedTimeUtc: new Date(),
    messageType,
    lastMessageId: `m-${i}`,
    eventTypeId: 'Bench.CustomerChanged',
    messageContent: {
      eventContent: { eventTypeId: 'Bench.CustomerChanged', eventJson: PAYLOAD },
      errorContent: null,
    },
  };
}

/** Runs `op(i)` from `workers` concurrent callers until the phase time is up; returns operations per second. */
async function measure(workers: number, op: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const started = performance.now();
  const deadline = started + PHASE_MS;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (performance.now() < deadline) await op(next++);
    }),
  );
  return next / ((performance.now() - started) / 1000);
}

const rows: Record<string, string | number>[] = [];
const benchStarted = performance.now();
for (const name of PROVIDERS) {
  const factory = providers[name];
  if (!factory)
    throw new Error(`Unknown provider '${name}' in BENCH_PROVIDERS (use memory, sqlite, postgres).`);
  const forWrites = await factory();
  if (typeof forWrites === 'string') {
    console.log(`${name}: skipped — ${forWrites}`);
    continue;
  }
  const writes = await benchWrites(forWrites);
  // Reads run on a fresh store holding the same rows for every provider, so the figures compare.
  const forReads = await factory();
  if (typeof forReads === 'string') throw new Error(forReads);
  rows.push({ provider: name, ...writes, ...(await benchReads(forReads)) });
}

async function benchWrites({ store, dispose }: Opened): Promise<Record<string, number>> {
  try {
    let fresh = 0;
    // A new row per write: the guard has nothing to decide against, so this is one insert.
    const guardedInsert = await measure(1, () =>
      store.writeStatus({
        key: { endpointId: ENDPOINT, eventId: `new-${fresh++}`, sessionId: 's1' },
        status: ResolutionStatus.Pending,
        content: request(fresh),
      }),
    );
    // Re-deferring existing rows: read under the write lock, decide with the guard, update.
    const guardedUpdate = await measure(1, (i) =>
      store.writeStatus({
        key: { endpointId: ENDPOINT, eventId: `new-${i % fresh}`, sessionId: 's1' },
        status: ResolutionStatus.Deferred,
        content: request(i, MessageType.DeferralResponse),
      }),
    );
    const guardedConcurrent = await measure(CONCURRENCY, (i) =>
      store.writeStatus({
        key: { endpointId: ENDPOINT, eventId: `new-${i % fresh}`, sessionId: 's1' },
        status: ResolutionStatus.Deferred,
        content: request(i, MessageType.DeferralResponse),
      }),
    );
    const terminal = await measure(1, (i) =>
      store.writeStatus({
        key: { endpointId: ENDPOINT, eventId: `done-${i}`, sessionId: 's1' },
        status: ResolutionStatus.Completed,
        content: request(i, MessageType.ResolutionResponse),
      }),
    );
    return {
      'guarded insert/s': Math.round(guardedInsert),
      'guarded update/s': Math.round(guardedUpdate),
      [`guarded update x${CONCURRENCY}/s`]: Math.round(guardedConcurrent),
      'terminal/s': Math.round(terminal),
    };
  } finally {
    await dispose();
  }
}

async function benchReads({ store, dispose }: Opened): Promise<Record<string, number>> {
  try {
    for (let i = 0; i < SEEDED_ROWS; i++) {
      const status = i % 4 === 0 ? ResolutionStatus.Completed : ResolutionStatus.Failed;
      await store.writeStatus({
        key: { endpointId: ENDPOINT, eventId: `seed-${i}`, sessionId: `s${i % 50}` },
        status,
        content: request(i, MessageType.ErrorResponse),
      });
    }
    const byId = await measure(1, (i) =>
      store.getEventById({ endpointId: ENDPOINT, id: `seed-${i % SEEDED_ROWS}_s${(i % SEEDED_ROWS) % 50}` }),
    );
    const list = await measure(1, () =>
      store.downloadEndpointStatePaging({ endpointId: ENDPOINT, pageSize: 50, continuationToken: null }),
    );
    const counts = await measure(1, () => store.downloadEndpointStateCount(ENDPOINT));
    return {
      'getEventById/s': Math.round(byId),
      'unresolved page of 50/s': Math.round(list),
      'status counts/s': Math.round(counts),
    };
  } finally {
    await dispose();
  }
}

console.log(
  `\nStore bench (phases of ${PHASE_MS} ms; reads over ${SEEDED_ROWS} rows on one endpoint, 3/4 of them unresolved)`,
);
console.table(rows);
console.log(`total ${((performance.now() - benchStarted) / 1000).toFixed(1)} s`);
