// Runs every `bench:*` script in a short form, one after another, so none rots: fails (exit 1) when one exits
// non-zero or overruns its time limit. The figures printed are meaningless at these sizes; only crashes count.
// Run: npm run bench:smoke   (PostgreSQL and Redis parts skip with a line when the services are not reachable,
// as the benches themselves do; Service Bus runs against the in-process emulator)
import { spawn } from 'node:child_process';

const SHORT = [
  { script: 'bench:store', env: { BENCH_STORE_PHASE_MS: '150' } },
  { script: 'bench:transport', env: { BENCH_MESSAGES: '200', BENCH_ROUNDS: '1' } },
  { script: 'bench:resolver', env: { BENCH_EVENTS: '200', BENCH_RESOLVER_SECONDS: '5' } },
  { script: 'bench:replay', env: { REPLAY_COUNT: '200' } },
  { script: 'bench:servicebus', env: { BENCH_MESSAGES: '100', BENCH_ROUNDS: '1' } },
  { script: 'bench:store-scale', args: ['--quick'], env: { BENCH_LARGE: '12000', BENCH_REPEATS: '2' } },
  {
    script: 'bench:compare',
    env: { BENCH_EVENTS: '100', BENCH_ROUNDS: '1', BENCH_STEADY_MS: '0', BENCH_COUNT_STATEMENTS: '1' },
    limitMs: 240_000,
  },
];
const LIMIT_MS = 150_000;

function run({ script, env, args = [], limitMs = LIMIT_MS }) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn('npm', ['run', '--silent', script, ...(args.length ? ['--', ...args] : [])], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const timer = setTimeout(() => {
      console.error(`bench:smoke: ${script} overran ${limitMs / 1000} s; stopping it`);
      child.kill('SIGKILL');
    }, limitMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ script, ok: code === 0, code, signal, seconds: Math.round((Date.now() - started) / 1000) });
    });
  });
}

const results = [];
for (const bench of SHORT) {
  console.log(`\n=== ${bench.script} (short form) ===`);
  results.push(await run(bench));
}
console.log('\nbench:smoke');
for (const r of results)
  console.log(
    `  ${r.ok ? 'ok  ' : 'FAIL'} ${r.script.padEnd(18)} ${String(r.seconds).padStart(4)} s${r.ok ? '' : ` (exit ${r.code ?? r.signal})`}`,
  );
process.exit(results.every((r) => r.ok) ? 0 : 1);
