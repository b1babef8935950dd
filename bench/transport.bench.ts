// Transport throughput: a raw SKIP LOCKED queue as the baseline vs the SQL transport end to end
// (publish → session receive → engine → complete with a Resolver-bound response in the same transaction).
// Run: npm run bench:transport   (env: BENCH_MESSAGES, BENCH_ROUNDS, BENCH_DIALECTS=postgres,sqlite, NIMBUS_TEST_POSTGRES_URL)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Workspace packages resolve to their TypeScript sources under the `source` export condition.
if (!process.execArgv.some((arg) => arg.includes('conditions=source'))) {
  const self = fileURLToPath(import.meta.url);
  const run = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', self], {
    stdio: 'inherit',
  });
  process.exit(run.status ?? 1);
}

const { MessageEngine, MessageType, SessionProcessor, createEnvelope, encodeEnvelope, silentLogger, uuidv7 } =
  await import('@nimbus/core');
const { createSqlTransport } = await import('@nimbus/transport-sql');
const { createTemporaryDatabase, postgresUnavailableReason } = await import('@nimbus/testing/postgres');
const Database = (await import('better-sqlite3')).default;
const pg = (await import('pg')).default;

// BENCH_COUNT_STATEMENTS=1: count the SQL statements (by leading keyword) the end-to-end run sends per message.
const COUNT_STATEMENTS = process.env.BENCH_COUNT_STATEMENTS === '1';
const statementCounts = new Map<string, number>();
function countStatement(sql: unknown): void {
  const text = typeof sql === 'string' ? sql : String((sql as { text?: unknown } | null)?.text ?? '');
  const verb = (text.trim().match(/^[A-Za-z]+/)?.[0] ?? '?').toUpperCase();
  statementCounts.set(verb, (statementCounts.get(verb) ?? 0) + 1);
}
if (COUNT_STATEMENTS) {
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: unknown, ...args: unknown[]) {
    countStatement(args[0]);
    return query.apply(this, args);
  } as typeof pg.Client.prototype.query;
  const probe = new Database(':memory:');
  const statementProto = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<string, unknown>;
  probe.close();
  for (const method of ['run', 'all', 'get', 'iterate']) {
    const original = statementProto[method] as (...args: unknown[]) => unknown;
    statementProto[method] = function (this: { source: string }, ...args: unknown[]) {
      countStatement(this.source);
      return original.apply(this, args);
    };
  }
}
function statementReport(messages: number): string {
  const total = [...statementCounts.values()].reduce((a, b) => a + b, 0);
  const parts = [...statementCounts.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([verb, n]) => `${verb} ${(n / messages).toFixed(2)}`);
  statementCounts.clear();
  return `${(total / messages).toFixed(2)} statements/message (${parts.join(', ')})`;
}

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 5000);
const SESSIONS = 100;
const WORKERS = 4;
const PUBLISH_BATCH = 50;
const BODY = 'x'.repeat(1024);
const EVENT_TYPE = 'BenchEvent';

type Dialect = 'postgres' | 'sqlite';
interface Target {
  readonly dialect: Dialect;
  readonly location: string;
  dispose(): Promise<void>;
}

function rate(count: number, ms: number): number {
  return Math.round((count / ms) * 1000);
}

// ---- (a) raw baseline: claim + delete one message per commit with SKIP LOCKED --------------------------------

async function rawPostgres(url: string): Promise<number> {
  const pool = new pg.Pool({ connectionString: url, max: WORKERS + 2 });
  await pool.query(
    'CREATE TABLE bench_queue (id bigserial PRIMARY KEY, session_id text NOT NULL, body text NOT NULL)',
  );
  let consumed = 0;
  const started = Date.now();
  const publisher = (async () => {
    for (let i = 0; i < MESSAGES; i += PUBLISH_BATCH) {
      const count = Math.min(PUBLISH_BATCH, MESSAGES - i);
      const values = Array.from({ length: count }, (_, k) => `($${2 * k + 1}, $${2 * k + 2})`).join(', ');
      const params = Array.from({ length: count }, (_, k) => [`s${(i + k) % SESSIONS}`, BODY]).flat();
      await pool.query(`INSERT INTO bench_queue (session_id, body) VALUES ${values}`, params);
    }
  })();
  const worker = async () => {
    while (consumed < MESSAGES) {
      const { rowCount } = await pool.query(
        `DELETE FROM bench_queue WHERE id = (SELECT id FROM bench_queue ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING body`,
      );
      if (rowCount) consumed += rowCount;
      else await new Promise((resolve) => setTimeout(resolve, 1));
    }
  };
  await Promise.all([publisher, ...Array.from({ length: WORKERS }, worker)]);
  const elapsed = Date.now() - started;
  await pool.query('DROP TABLE bench_queue');
  await pool.end();
  return rate(MESSAGES, elapsed);
}

async function rawSqlite(path: string): Promise<number> {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(
    'CREATE TABLE bench_queue (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id text NOT NULL, body text NOT NULL)',
  );
  const insert = db.prepare('INSERT INTO bench_queue (session_id, body) VALUES (?, ?)');
  const insertBatch = db.transaction((from: number, count: number) => {
    for (let k = 0; k < count; k++) insert.run(`s${(from + k) % SESSIONS}`, BODY);
  });
  const claim = db.prepare(
    'DELETE FROM bench_queue WHERE id = (SELECT id FROM bench_queue ORDER BY id LIMIT 1) RETURNING body',
  );
  let consumed = 0;
  const started = Date.now();
  // One thread: alternate a publish batch with consuming, as a single-process embedded queue does.
  let published = 0;
  while (consumed < MESSAGES) {
    if (published < MESSAGES) {
      const count = Math.min(PUBLISH_BATCH, MESSAGES - published);
      insertBatch(published, count);
      published += count;
    }
    for (let k = 0; k < PUBLISH_BATCH && claim.get(); k++) consumed++;
    await new Promise((resolve) => setImmediate(resolve));
  }
  const elapsed = Date.now() - started;
  db.exec('DROP TABLE bench_queue');
  db.close();
  return rate(MESSAGES, elapsed);
}

// ---- (b) the transport end to end with the real engine -----------------------------------------------------

function benchEvent(index: number) {
  return encodeEnvelope(
    createEnvelope({
      messageId: uuidv7(),
      to: EVENT_TYPE,
      sessionId: `s${index % SESSIONS}`,
      // The routing rule refuses an event without one.
      correlationId: `corr-${index}`,
      messageType: MessageType.EventRequest,
      content: {
        eventContent: { eventTypeId: EVENT_TYPE, eventJson: JSON.stringify({ index, data: BODY }) },
        errorContent: null,
      },
    }),
  );
}

async function transportEndToEnd(target: Target, namespace: string): Promise<number> {
  const transport = await createSqlTransport(
    target.dialect === 'postgres'
      ? {
          dialect: 'postgres',
          connectionString: target.location,
          schema: namespace,
          poolSize: WORKERS + 4,
        }
      : { dialect: 'sqlite', path: target.location, tablePrefix: `${namespace}_` },
  );
  await transport.applyTopology({
    endpoints: ['Crm', 'Erp'],
    routes: [{ source: 'Crm', eventTypeId: EVENT_TYPE, target: 'Erp' }],
  });
  const engine = new MessageEngine({
    endpointId: 'Erp',
    handler: { handle: async () => undefined },
    logger: silentLogger,
  });
  let handled = 0;
  let finished!: () => void;
  const done = new Promise<void>((resolve) => {
    finished = resolve;
  });
  const processor = new SessionProcessor({
    transport,
    input: 'Erp',
    maxConcurrentSessions: WORKERS,
    receiveBatchSize: 20,
    prefetchCount: 19,
    sessionIdleTimeoutMs: 20,
    acceptWaitMs: 1000,
    logger: silentLogger,
    handler: {
      onSessionAccepted: (session) => engine.onSessionAccepted(session),
      async handleMessage(session, message) {
        await engine.handleMessage(session, message);
        if (++handled === MESSAGES) finished();
      },
      async handleMessages(session, messages) {
        await engine.handleMessages(session, messages);
        handled += messages.length;
        if (handled === MESSAGES) finished();
      },
    },
  });
  statementCounts.clear();
  const started = Date.now();
  await processor.start();
  for (let i = 0; i < MESSAGES; i += PUBLISH_BATCH) {
    const messages = Array.from({ length: Math.min(PUBLISH_BATCH, MESSAGES - i) }, (_, k) =>
      benchEvent(i + k),
    );
    await transport.publish([{ source: 'Crm', messages }]);
  }
  await done;
  const elapsed = Date.now() - started;
  if (COUNT_STATEMENTS) console.log(`${target.dialect} (b): ${statementReport(MESSAGES)}`);
  await processor.stop();
  const resolverCopies = (await transport.counts('Resolver')).active;
  await transport.close();
  if (resolverCopies !== 2 * MESSAGES) {
    throw new Error(
      `expected ${2 * MESSAGES} Resolver copies (request + response per message), found ${resolverCopies}`,
    );
  }
  return rate(MESSAGES, elapsed);
}

// ---- run ---------------------------------------------------------------------------------------------------

async function targets(): Promise<Target[]> {
  const wanted = (process.env.BENCH_DIALECTS ?? 'postgres,sqlite').split(',');
  const list: Target[] = [];
  if (wanted.includes('postgres')) {
    const reason = await postgresUnavailableReason();
    if (reason === null) {
      const database = await createTemporaryDatabase('nimbus_bench_transport');
      list.push({ dialect: 'postgres', location: database.url, dispose: () => database.drop() });
    } else {
      console.log(`PostgreSQL skipped: ${reason}`);
    }
  }
  if (wanted.includes('sqlite')) {
    const dir = mkdtempSync(join(tmpdir(), 'nimbus-bench-transport-'));
    list.push({
      dialect: 'sqlite',
      location: join(dir, 'bench.db'),
      dispose: async () => rmSync(dir, { recursive: true, force: true }),
    });
  }
  return list;
}

console.log(
  `transport bench: ${MESSAGES} messages of 1 KiB over ${SESSIONS} sessions, ${WORKERS} concurrent consumers, publish batches of ${PUBLISH_BATCH}`,
);
console.log('(b) uses the real MessageEngine (no-op subscriber handler) under the SessionProcessor');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

// The machine is shared, so (a) and (b) alternate for a few rounds and the medians are compared.
for (const target of await targets()) {
  try {
    const raws: number[] = [];
    const e2es: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      raws.push(
        target.dialect === 'postgres' ? await rawPostgres(target.location) : await rawSqlite(target.location),
      );
      e2es.push(await transportEndToEnd(target, `bench_transport_${round}`));
    }
    const raw = median(raws);
    const e2e = median(e2es);
    console.log(
      `${target.dialect.padEnd(8)} (a) raw queue ${String(raw).padStart(6)} msg/s | (b) transport end to end ${String(e2e).padStart(6)} msg/s | ratio ${(e2e / raw).toFixed(2)}   (medians of ${ROUNDS}; a: ${raws.join(', ')}; b: ${e2es.join(', ')})`,
    );
  } finally {
    await target.dispose();
  }
}
