import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  createTemporaryDatabase,
  shouldRunPostgresSuite,
  type TemporaryDatabase,
} from '@nimbus/testing/postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually } from '../chaos/harness/eventually.js';
import { type HandlerRun, readHandlerLog } from '../chaos/harness/handler-log.js';
import { runCliOnce } from '../chaos/harness/run-cli.js';
import { PLATFORM_MODULE, Stack, type StackBackend } from '../chaos/harness/stack.js';

// Issue 24, the pause scenario, with real OS processes: host A (lease 3 s, receive batch 10, a 150 ms handler)
// holds a session of 30 events; after 4 are handled A is paused (SIGSTOP) for 10 s and host B starts; B takes the
// session once A's lease lapses and runs the rest; A is resumed (SIGCONT). No handler of A may start after it
// resumes, A's late settlement must be refused, and every event must be handled, in order, with nothing lost.

const EVENTS = 30;
const SESSION = 'stall';
const HOST = { LEASE_MS: '3000', RECEIVE_BATCH_SIZE: '10', HANDLER_DELAY_MS: '150' };
const PAUSE_MS = 10_000;

const runPg = await shouldRunPostgresSuite('stalled host (PostgreSQL)');

interface Outcome {
  readonly runs: HandlerRun[];
  readonly resumedAt: number;
  readonly outputA: string;
}

async function pauseScenario(backend: StackBackend, workDir: string): Promise<Outcome> {
  const stack = new Stack({ backend, workDir, webappPort: 0 });
  try {
    const migrate = await runCliOnce(['store', 'migrate'], stack.cliEnv());
    expect(migrate.code, migrate.stderr).toBe(0);
    const topology = await runCliOnce(['topology', 'apply', '--platform', PLATFORM_MODULE], stack.cliEnv());
    expect(topology.code, topology.stderr).toBe(0);

    const hostA = stack.host('host-a', HOST).start();
    await hostA.waitFor(/adapter host host-a ready/, 60_000);
    const publisher = stack.publisher().start();
    await publisher.waitFor(/publisher ready/, 60_000);
    for (let n = 1; n <= EVENTS; n++) publisher.send(JSON.stringify({ orderId: SESSION, n, mode: 'ok' }));
    await eventually(
      () => ((publisher.output.match(/^published /gm)?.length ?? 0) >= EVENTS ? true : undefined),
      60_000,
      `${EVENTS} publishes`,
      50,
    );
    const runsOf = (host: string) => readHandlerLog(stack.handlerLog).filter((run) => run.host === host);
    await eventually(
      () => (runsOf('host-a').length >= 4 ? true : undefined),
      60_000,
      'host A to handle 4',
      10,
    );

    hostA.pause();
    const pausedAt = Date.now();
    const hostB = stack.host('host-b', HOST).start();
    await hostB.waitFor(/adapter host host-b ready/, 60_000);
    await sleep(Math.max(0, pausedAt + PAUSE_MS - Date.now()));
    const resumedAt = Date.now();
    hostA.resume();

    const succeeded = () =>
      new Set(
        readHandlerLog(stack.handlerLog)
          .filter((r) => r.outcome === 'handled')
          .map((r) => r.n),
      );
    await eventually(() => (succeeded().size >= EVENTS ? true : undefined), 90_000, 'every event handled');
    // Give the resumed host time to do whatever it would still do with the messages it had in hand.
    await sleep(4_000);
    expect(stack.unexpectedExits()).toEqual([]);
    return { runs: readHandlerLog(stack.handlerLog), resumedAt, outputA: hostA.output };
  } finally {
    await stack.stopAll();
  }
}

/** Runs of event n that started after a later event of the session had succeeded (in log order). */
function reorderedRuns(runs: readonly HandlerRun[]): HandlerRun[] {
  let latestSucceeded = 0;
  const reordered: HandlerRun[] = [];
  for (const run of runs) {
    if (run.n < latestSucceeded) reordered.push(run);
    if (run.outcome === 'handled') latestSucceeded = Math.max(latestSucceeded, run.n);
  }
  return reordered;
}

function assertFenced({ runs, resumedAt, outputA }: Outcome, label: string): void {
  const a = runs.filter((run) => run.host === 'host-a');
  const b = runs.filter((run) => run.host === 'host-b');
  const lateA = a.filter((run) => run.at >= resumedAt);
  const firstB = b[0]?.n ?? 0;
  const refused = outputA.match(/Settlement refused by the transport.*"messages":(\d+)/);
  // The numbers the report quotes (and the run without the fence is compared with).
  console.log(
    `[${label}] host A ran ${a.map((r) => r.n).join(',')} (${lateA.length} after resuming); host B ran ${b[0]?.n}..${b.at(-1)?.n} (${b.length} runs); duplicates ${runs.length - EVENTS}; run of an event after a later one of its session had succeeded, from B taking over the uncommitted batch of A: ${reorderedRuns(runs).filter((r) => r.host === 'host-b' && r.n < firstB + a.length).length}, others: ${reorderedRuns(runs).filter((r) => r.host === 'host-a').length}; A's refused settlement: ${refused ? `${refused[1]} message(s)` : 'none logged'}`,
  );
  // No handler of A starts after it resumes for any message of the session.
  expect(lateA).toEqual([]);
  // A's late settlement (the batch it had handled before the pause) is refused and logged, never applied.
  // Whichever A notices first on waking: the lapse on its monotonic clock, or its renewal being refused.
  expect(outputA).toMatch(/Session lease lost: (its lease lapsed|a renewal of its lease was refused)/);
  expect(refused, 'A logs its refused settlement').not.toBeNull();
  // Nothing lost; B took the session over and ran the rest exactly once, in order; no run of A after one of B.
  expect(new Set(runs.filter((r) => r.outcome === 'handled').map((r) => r.n)).size).toBe(EVENTS);
  expect(b.map((r) => r.n)).toEqual(Array.from({ length: EVENTS - firstB + 1 }, (_, i) => firstB + i));
  expect(firstB).toBeLessThanOrEqual((a.at(-1)?.n ?? 0) + 1);
  const lastB = runs.findIndex((r) => r.host === 'host-b');
  expect(runs.slice(lastB).filter((r) => r.host === 'host-a')).toEqual([]);
  // The only runs of an event after a later one succeeded are B's redeliveries of what A handled but never
  // committed (its batch settles at the end); none is A's.
  expect(reorderedRuns(runs).filter((r) => r.host === 'host-a')).toEqual([]);
}

describe('a host paused past its lease runs nothing of the session after it resumes (issue 24)', () => {
  const dirs: string[] = [];
  const workDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'nimbus-stall-'));
    dirs.push(dir);
    return dir;
  };
  let database: TemporaryDatabase | undefined;
  afterAll(async () => {
    await database?.drop();
    if (!process.env.NIMBUS_KEEP_STALL) for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('on SQLite', { timeout: 240_000 }, async () => {
    assertFenced(await pauseScenario({ dialect: 'sqlite' }, workDir()), 'sqlite');
  });

  it.runIf(runPg)('on PostgreSQL', { timeout: 240_000 }, async () => {
    database = await createTemporaryDatabase('nimbus_stall');
    assertFenced(await pauseScenario({ dialect: 'postgres', url: database.url }, workDir()), 'postgres');
  });
});
