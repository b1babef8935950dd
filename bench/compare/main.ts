// One comparison run: NimBus against a raw table queue, pg-boss and BullMQ (PostgreSQL), and the SQLite
// equivalents, in alternating rounds on the same machine; then a steady load at half the measured maximum of
// NimBus with full tracking, over 100 and over 1,000 keys.
// Run: npm run bench:compare [-- --quick]   (env: BENCH_EVENTS, BENCH_ROUNDS, BENCH_STEADY_MS,
// BENCH_COUNT_STATEMENTS=1, BENCH_ONLY=postgres|sqlite, BENCH_STEADY_RATE, BENCH_REDIS=host:port,
// NIMBUS_TEST_POSTGRES_URL, BENCH_RESOLVER_CPU_PROF=<dir> writes a CPU profile of each Resolver process there,
// BENCH_ENDPOINT_SESSIONS=N sessions held by the endpoint)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Workspace packages resolve to their TypeScript sources under the `source` export condition.
if (!process.execArgv.some((arg) => arg.includes('conditions=source'))) {
  const self = fileURLToPath(import.meta.url);
  const run = spawnSync(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', self, ...process.argv.slice(2)],
    { stdio: 'inherit' },
  );
  process.exit(run.status ?? 1);
}

const { createTemporaryDatabase, postgresUnavailableReason } = await import('@nimbus/testing/postgres');
const { bullMq, pgBoss, rawPostgres, rawSqlite, reachable, redisAddress } = await import('./peers.js');
const { nimbusThroughput, steadyLoad } = await import('./nimbus-runs.js');
const { countStatements, median, ms } = await import('./stats.js');

const quick = process.argv.includes('--quick');
const EVENTS = Number(process.env.BENCH_EVENTS ?? (quick ? 2_000 : 10_000));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (quick ? 1 : 3));
const STEADY_MS = Number(process.env.BENCH_STEADY_MS ?? (quick ? 4_000 : 15_000));
const SESSIONS = 100;
const work = { events: EVENTS, sessions: SESSIONS, body: 'x'.repeat(1024) };
const only = process.env.BENCH_ONLY;
// BENCH_ENDPOINT_SESSIONS=N holds up to N sessions in the endpoint (default: the SessionProcessor's).
const endpointSessions = process.env.BENCH_ENDPOINT_SESSIONS;
const endpointSettings = endpointSessions ? { maxConcurrentSessions: Number(endpointSessions) } : {};
if (process.env.BENCH_COUNT_STATEMENTS === '1') countStatements();

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
console.log(
  `compare bench${quick ? ' (--quick)' : ''}: ${EVENTS} events of 1 KiB over ${SESSIONS} sessions, no-op handler, ${ROUNDS} alternating round(s); load average ${load()}`,
);

type Row = { name: string; values: number[]; note?: string };
const figures = new Map<string, Row>();
function record(name: string, value: number, note?: string): void {
  const row = figures.get(name) ?? { name, values: [] };
  row.values.push(value);
  if (note) row.note = note;
  figures.set(name, row);
}
const med = (name: string) => median(figures.get(name)?.values ?? []);

async function step(name: string, run: () => Promise<number>): Promise<void> {
  const value = await run();
  record(name, value);
  console.log(`  ${name.padEnd(52)} ${String(value).padStart(7)} events/s`);
}

const pgReason = only === 'sqlite' ? 'not selected (BENCH_ONLY)' : await postgresUnavailableReason();
const { host: redisHost, port: redisPort } = redisAddress();
const redis = only !== 'sqlite' && (await reachable(redisHost, redisPort));
if (pgReason) console.log(`PostgreSQL skipped: ${pgReason}`);
if (!redis && only !== 'sqlite')
  console.log(`BullMQ skipped: Redis is not reachable at ${redisHost}:${redisPort} (BENCH_REDIS)`);
const statementNotes = new Map<string, string>();

// BENCH_STEADY_RATE=N skips the throughput rounds and runs only the steady load at N events/s.
const steadyRate = process.env.BENCH_STEADY_RATE ? Number(process.env.BENCH_STEADY_RATE) : null;
for (let round = 1; steadyRate === null && round <= ROUNDS; round++) {
  console.log(`round ${round}/${ROUNDS}`);
  if (!pgReason) {
    const database = await createTemporaryDatabase('nimbus_bench_peers');
    try {
      await step('PostgreSQL raw queue, 1 per commit, 4 consumers', () => rawPostgres(database.url, work, 1));
      await step('PostgreSQL raw queue, 50 per commit, 4 consumers', () =>
        rawPostgres(database.url, work, 50),
      );
      await step('pg-boss 10.4.2 singleton + singletonKey (per-key serial)', () =>
        pgBoss(database.url, work, `pgboss_${round}`),
      );
    } finally {
      await database.drop();
    }
    if (redis)
      await step('BullMQ on local Redis (no per-key order)', () => bullMq(work, `nimbus-bench-${round}`));
    for (const tracking of [false, true]) {
      const name = `NimBus PostgreSQL, ${tracking ? 'full tracking (Resolver process)' : 'transport only'}`;
      await step(name, async () => {
        const result = await nimbusThroughput('postgres', work, tracking, endpointSettings);
        if (result.statements) statementNotes.set(name, result.statements);
        return result.eventsPerSecond;
      });
    }
  }
  if (only !== 'postgres') {
    const dir = mkdtempSync(join(tmpdir(), 'nimbus-bench-raw-'));
    try {
      await step('SQLite raw queue, 1 per statement', () => rawSqlite(join(dir, 'raw.db'), work));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    for (const tracking of [false, true]) {
      const name = `NimBus SQLite, ${tracking ? 'full tracking (Resolver process)' : 'transport only'}`;
      await step(name, async () => {
        const result = await nimbusThroughput('sqlite', work, tracking, endpointSettings);
        if (result.statements) statementNotes.set(name, result.statements);
        return result.eventsPerSecond;
      });
    }
  }
}

console.log(`\nmedians of ${ROUNDS} round(s) (events/s):`);
for (const row of figures.values()) {
  console.log(`  ${row.name.padEnd(52)} ${String(med(row.name)).padStart(7)}   (${row.values.join(', ')})`);
  const statements = statementNotes.get(row.name);
  if (statements) console.log(`      ${statements}`);
}
const ratio = (a: string, b: string) => {
  const x = med(a);
  const y = med(b);
  return x > 0 && y > 0 ? `${(x / y).toFixed(2)}x` : 'n/a';
};
const pgTracking = 'NimBus PostgreSQL, full tracking (Resolver process)';
const sqliteTracking = 'NimBus SQLite, full tracking (Resolver process)';
console.log('\nratios:');
if (!pgReason) {
  console.log(
    `  PostgreSQL tracking / pg-boss per-key serial      ${ratio(pgTracking, 'pg-boss 10.4.2 singleton + singletonKey (per-key serial)')}   (goal >= 1.0x)`,
  );
  console.log(
    `  PostgreSQL tracking / raw 1 per commit            ${ratio(pgTracking, 'PostgreSQL raw queue, 1 per commit, 4 consumers')}   (goal >= 0.5x)`,
  );
  console.log(
    `  PostgreSQL tracking / transport only              ${ratio(pgTracking, 'NimBus PostgreSQL, transport only')}`,
  );
  console.log(
    `  PostgreSQL transport only / raw 1 per commit      ${ratio('NimBus PostgreSQL, transport only', 'PostgreSQL raw queue, 1 per commit, 4 consumers')}`,
  );
  if (redis)
    console.log(
      `  PostgreSQL tracking / BullMQ                      ${ratio(pgTracking, 'BullMQ on local Redis (no per-key order)')}`,
    );
}
if (only !== 'postgres') {
  console.log(
    `  SQLite tracking / SQLite transport only           ${ratio(sqliteTracking, 'NimBus SQLite, transport only')}   (goal >= 0.5x)`,
  );
  console.log(
    `  SQLite transport only / SQLite raw                ${ratio('NimBus SQLite, transport only', 'SQLite raw queue, 1 per statement')}`,
  );
}

console.log(
  `\nsteady load at half the measured tracking maximum, ${STEADY_MS / 1000} s each (Resolver process):`,
);
const dialects = [
  ...(pgReason ? [] : ['postgres' as const]),
  ...(only === 'postgres' ? [] : ['sqlite' as const]),
];
for (const dialect of dialects) {
  const max = med(dialect === 'postgres' ? pgTracking : sqliteTracking);
  const perSecond = steadyRate ?? Math.max(10, Math.round(max / 2));
  for (const keys of [100, 1_000]) {
    const r = await steadyLoad(dialect, perSecond, keys, STEADY_MS, work.body, endpointSettings);
    console.log(
      `  ${dialect.padEnd(8)} ${String(perSecond).padStart(5)}/s over ${String(keys).padStart(4)} keys: handler latency p50 ${ms(r.handlerP50)} p99 ${ms(r.handlerP99)} (goal < 50 ms) | store lag p50 ${ms(r.storeLagP50)} p95 ${ms(r.storeLagP95)} p99 ${ms(r.storeLagP99)} (goal p99 < 1 s) | max first-turn wait ${ms(r.maxFirstTurn)} (goal <= 1 s) | ${r.published} events${r.storeMissing ? `, ${r.storeMissing} without a Completed row` : ''}`,
    );
    if (r.statements) console.log(`      ${r.statements}`);
  }
}
console.log(`\nload average at the end ${load()}`);
