// One comparison run: NimBus (transport only; full tracking co-located with the endpoint in this process or its
// own; full tracking through the Resolver with the store apart) against a raw table queue, pg-boss 12 and BullMQ
// (PostgreSQL), and the SQLite equivalents, in alternating rounds on the same machine; ratios; then a steady load
// at half the measured maximum of each tracking shape, over 100 and over 1,000 keys.
// Run: npm run bench:compare [-- --quick]   (env: BENCH_EVENTS, BENCH_ROUNDS, BENCH_STEADY_MS,
// BENCH_COUNT_STATEMENTS=1, BENCH_STEPS=a,b (only steps whose name contains a or b), BENCH_ONLY=postgres|sqlite,
// BENCH_STEADY_RATE, BENCH_REDIS=host:port, NIMBUS_TEST_POSTGRES_URL, BENCH_RESOLVER_CPU_PROF=<dir> writes a CPU profile of each Resolver process there,
// BENCH_ENDPOINT_SESSIONS=N sessions held by the endpoint, BENCH_SETTLE_GROUP=N the transport's
// settleGroupConcurrency, BENCH_SESSION_IDLE_MS=N the endpoint's sessionIdleTimeoutMs, BENCH_ACCEPT_MANY=0 every
// session leased alone (no acceptSessions); BENCH_STEADY_MS=0 skips the steady load)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
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
type RunMode = import('./nimbus-runs.js').RunMode;
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

// BENCH_STEPS=a,b runs only the steps whose name contains one of the parts (a quick look at a few figures).
const selectedSteps = process.env.BENCH_STEPS?.split(',').map((part) => part.trim().toLowerCase());
async function step(name: string, run: () => Promise<number>): Promise<void> {
  if (selectedSteps && !selectedSteps.some((part) => name.toLowerCase().includes(part))) return;
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

const NIMBUS_MODES = [
  { label: 'transport only', mode: { shape: 'transport' } },
  { label: 'tracking co-located, endpoint in-process', mode: { shape: 'colocated' } },
  { label: 'tracking co-located, endpoint process', mode: { shape: 'colocated', endpointProcess: true } },
  { label: 'tracking via Resolver, store apart', mode: { shape: 'apart' } },
] as const satisfies readonly { label: string; mode: RunMode }[];
const nimbusName = (dialect: 'postgres' | 'sqlite', label: string) =>
  `NimBus ${dialect === 'postgres' ? 'PostgreSQL' : 'SQLite'}, ${label}`;

async function nimbusSteps(dialect: 'postgres' | 'sqlite'): Promise<void> {
  for (const { label, mode } of NIMBUS_MODES) {
    const name = nimbusName(dialect, label);
    await step(name, async () => {
      const result = await nimbusThroughput(dialect, work, mode, endpointSettings);
      if (result.statements) statementNotes.set(name, result.statements);
      return result.eventsPerSecond;
    });
  }
}

const RAW_1 = 'PostgreSQL raw queue, 1 per commit, 4 consumers';
const RAW_50 = 'PostgreSQL raw queue, <=50 per commit, 4 consumers';
/** The installed peer's version, printed beside its figures (a goal counts only against pg-boss 12). */
const BOSS_VERSION = (
  JSON.parse(readFileSync(fileURLToPath(import.meta.resolve('pg-boss/package.json')), 'utf8')) as {
    version: string;
  }
).version;
const BOSS_FIFO = `pg-boss ${BOSS_VERSION} key_strict_fifo (per-key order)`;
const BOSS_STANDARD = `pg-boss ${BOSS_VERSION} standard (no order)`;
const BULLMQ = 'BullMQ on local Redis (no per-key order)';
const SQLITE_RAW = 'SQLite raw queue, 1 per statement';

// BENCH_STEADY_RATE=N skips the throughput rounds and runs only the steady load at N events/s.
const steadyRate = process.env.BENCH_STEADY_RATE ? Number(process.env.BENCH_STEADY_RATE) : null;
for (let round = 1; steadyRate === null && round <= ROUNDS; round++) {
  console.log(`round ${round}/${ROUNDS} (load average ${load()})`);
  if (!pgReason) {
    const database = await createTemporaryDatabase('nimbus_bench_peers');
    try {
      await step(RAW_1, () => rawPostgres(database.url, work, 1));
      await step(RAW_50, () => rawPostgres(database.url, work, 50));
      await step(BOSS_FIFO, () => pgBoss(database.url, work, `pgboss_fifo_${round}`, 'key_strict_fifo'));
      await step(BOSS_STANDARD, () => pgBoss(database.url, work, `pgboss_std_${round}`, 'standard'));
    } finally {
      await database.drop();
    }
    if (redis) await step(BULLMQ, () => bullMq(work, `nimbus-bench-${round}`));
    await nimbusSteps('postgres');
  }
  if (only !== 'postgres') {
    const dir = mkdtempSync(join(tmpdir(), 'nimbus-bench-raw-'));
    try {
      await step(SQLITE_RAW, () => rawSqlite(join(dir, 'raw.db'), work));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    await nimbusSteps('sqlite');
  }
}

console.log(`\nmedians of ${ROUNDS} round(s) (events/s):`);
for (const row of figures.values()) {
  console.log(`  ${row.name.padEnd(56)} ${String(med(row.name)).padStart(7)}   (${row.values.join(', ')})`);
  const statements = statementNotes.get(row.name);
  if (statements) console.log(`      ${statements}`);
}
const ratio = (a: string, b: string) => {
  const x = med(a);
  const y = med(b);
  return x > 0 && y > 0 ? `${(x / y).toFixed(2)}x` : 'n/a';
};
const line = (what: string, value: string, goal = '') =>
  console.log(`  ${what.padEnd(66)} ${value.padStart(6)}${goal ? `   (goal ${goal})` : ''}`);
const [transportOnly, colocated, colocatedProcess, viaResolver] = [
  NIMBUS_MODES[0].label,
  NIMBUS_MODES[1].label,
  NIMBUS_MODES[2].label,
  NIMBUS_MODES[3].label,
];
if (steadyRate === null) {
  console.log('\nratios:');
  for (const dialect of dialects()) {
    const n = (label: string) => nimbusName(dialect, label);
    if (dialect === 'postgres') {
      line('PostgreSQL co-located (in-process) / pg-boss 12 FIFO', ratio(n(colocated), BOSS_FIFO), '>= 1.0x');
      line(
        'PostgreSQL co-located (endpoint process) / pg-boss 12 FIFO',
        ratio(n(colocatedProcess), BOSS_FIFO),
        '>= 1.0x',
      );
      line('PostgreSQL transport only / pg-boss 12 FIFO', ratio(n(transportOnly), BOSS_FIFO), '>= 1.5x');
      line(
        'PostgreSQL co-located (in-process) / raw <=50 per commit',
        ratio(n(colocated), RAW_50),
        '>= 0.3x',
      );
      line('PostgreSQL co-located (in-process) / raw 1 per commit', ratio(n(colocated), RAW_1));
      line('pg-boss 12 FIFO / raw 1 per commit', ratio(BOSS_FIFO, RAW_1));
      if (redis) line('PostgreSQL co-located (in-process) / BullMQ', ratio(n(colocated), BULLMQ));
    } else {
      line(
        'SQLite co-located (in-process) / SQLite transport only',
        ratio(n(colocated), n(transportOnly)),
        '>= 0.7x',
      );
      line('SQLite transport only / SQLite raw', ratio(n(transportOnly), SQLITE_RAW));
    }
    const d = dialect === 'postgres' ? 'PostgreSQL' : 'SQLite';
    line(
      `${d} co-located: in-process / endpoint process`,
      ratio(n(colocated), n(colocatedProcess)),
      '>= 0.9x',
    );
    line(
      `${d} through the Resolver / co-located (in-process)`,
      ratio(n(viaResolver), n(colocated)),
      '>= 0.5x',
    );
    line(`${d} co-located (in-process) / transport only`, ratio(n(colocated), n(transportOnly)));
  }
}

function dialects(): ('postgres' | 'sqlite')[] {
  return [...(pgReason ? [] : ['postgres' as const]), ...(only === 'postgres' ? [] : ['sqlite' as const])];
}

if (STEADY_MS > 0)
  console.log(
    `\nsteady load at half the measured maximum of each shape, ${STEADY_MS / 1000} s each (endpoint in-process):`,
  );
for (const dialect of STEADY_MS > 0 ? dialects() : []) {
  for (const { label, mode, lagGoal } of [
    { label: colocated, mode: { shape: 'colocated' } as const, lagGoal: '100 ms' },
    { label: viaResolver, mode: { shape: 'apart' } as const, lagGoal: '1 s' },
  ]) {
    const max = med(nimbusName(dialect, label));
    const perSecond = steadyRate ?? Math.max(10, Math.round(max / 2));
    for (const keys of [100, 1_000]) {
      const r = await steadyLoad(dialect, mode, perSecond, keys, STEADY_MS, work.body, endpointSettings);
      console.log(
        `  ${dialect.padEnd(8)} ${label.padEnd(40)} ${String(perSecond).padStart(5)}/s over ${String(keys).padStart(4)} keys: handler latency p50 ${ms(r.handlerP50)} p99 ${ms(r.handlerP99)} (goal <= 50 ms) | store lag p50 ${ms(r.storeLagP50)} p95 ${ms(r.storeLagP95)} p99 ${ms(r.storeLagP99)} (goal p99 <= ${lagGoal}) | max first-turn wait ${ms(r.maxFirstTurn)} | ${r.published} events${r.storeMissing ? `, ${r.storeMissing} without a Completed row` : ''} | load ${load()}`,
      );
      if (r.statements) console.log(`      ${r.statements}`);
    }
  }
}
console.log(`\nload average at the end ${load()}`);
