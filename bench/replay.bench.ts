// Replay throughput: how fast a blocked session's parked messages are replayed inside the session, compared
// with the same session draining the same number of new messages in steady state. Real endpoint host
// (SessionProcessor + MessageEngine) over the memory (system clock), SQLite and PostgreSQL transports.
// Run: node --import tsx bench/replay.bench.ts
//   env: REPLAY_COUNT (default 10000), REPLAY_COUNT_POSTGRES (default REPLAY_COUNT),
//        REPLAY_TRANSPORTS=memory,sqlite,postgres, NIMBUS_TEST_POSTGRES_URL
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

const { defineEndpoint, defineEvent, definePlatform, silentLogger, topologyFromPlatform } = await import(
  '@nimbus/core'
);
const { createEndpointHost, createOperatorClient, createPublisher, createSubscriber } = await import(
  '@nimbus/sdk'
);
const { createMemoryTransport } = await import('@nimbus/transport-memory');
const { createSqlTransport } = await import('@nimbus/transport-sql');
const { createTemporaryDatabase, postgresUnavailableReason } = await import('@nimbus/testing/postgres');
const { z } = await import('zod');

type Transport = import('@nimbus/core').Transport;
type MessageEnvelope = import('@nimbus/core').MessageEnvelope;

const COUNT = positive('REPLAY_COUNT', 10_000);
const COUNT_POSTGRES = positive('REPLAY_COUNT_POSTGRES', COUNT);
const PUBLISH_BATCH = 100;
const BODY = 'x'.repeat(256);
// The same receive tuning as bench/transport.bench.ts, so steady state is not handicapped by one-at-a-time receives.
const PROCESSOR = { receiveBatchSize: 20, prefetchCount: 19, sessionIdleTimeoutMs: 200, acceptWaitMs: 200 };
const PHASE_TIMEOUT_MS = 90_000;
const BLOCKER = -1;

function positive(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`${name} must be a positive integer, got '${raw}'`);
  return value;
}

const BenchEvent = defineEvent('ReplayBenchEvent', {
  schema: z.object({ index: z.number().int(), data: z.string() }),
});
const Producer = defineEndpoint('Producer', { produces: [BenchEvent] });
const Consumer = defineEndpoint('Consumer', { consumes: [BenchEvent] });
const platform = definePlatform([Producer, Consumer]);

interface Seen {
  readonly index: number;
  readonly isReplay: boolean;
}

/** What the handler saw, per session, and a way to wait for a count. */
class HandlerLog {
  readonly #bySession = new Map<string, Seen[]>();
  readonly #waiters: { session: string; count: number; resolve: () => void }[] = [];
  failedEnvelope: MessageEnvelope | null = null;
  #failed = false;

  /** The first event of `failingSession` throws once (no retry policy, so its session blocks). */
  handle(session: string, failingSession: string, seen: Seen, envelope: MessageEnvelope): void {
    if (session === failingSession && seen.index === BLOCKER && !this.#failed) {
      this.#failed = true;
      this.failedEnvelope = envelope;
      throw new Error('replay bench: the first event of the session fails once');
    }
    const list = this.#bySession.get(session) ?? [];
    list.push(seen);
    this.#bySession.set(session, list);
    for (const waiter of this.#waiters.filter((w) => w.session === session && list.length >= w.count)) {
      this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  }

  seen(session: string): readonly Seen[] {
    return this.#bySession.get(session) ?? [];
  }

  waitFor(session: string, count: number, what: string): Promise<void> {
    if (this.seen(session).length >= count) return Promise.resolve();
    return withTimeout(
      new Promise<void>((resolve) => this.#waiters.push({ session, count, resolve })),
      () => `${what}: the handler saw ${this.seen(session).length} of ${count} messages`,
    );
  }
}

function withTimeout<T>(promise: Promise<T>, describe: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`timed out after ${PHASE_TIMEOUT_MS} ms — ${describe()}`)),
      PHASE_TIMEOUT_MS,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function until(condition: () => Promise<boolean>, describe: () => string): Promise<void> {
  const deadline = Date.now() + PHASE_TIMEOUT_MS;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${PHASE_TIMEOUT_MS} ms — ${describe()}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Every expected index exactly once, in publish order; `replayed` says what isReplay must be. */
function assertInOrder(label: string, seen: readonly Seen[], expected: readonly number[], replayed: boolean) {
  if (seen.length !== expected.length) {
    throw new Error(`${label}: the handler saw ${seen.length} messages, expected ${expected.length}`);
  }
  for (let i = 0; i < expected.length; i++) {
    const got = seen[i]!;
    if (got.index !== expected[i]) {
      throw new Error(
        `${label}: message #${i} was index ${got.index}, expected ${expected[i]} (out of order or duplicated)`,
      );
    }
    if (i > 0 && got.isReplay !== replayed) {
      throw new Error(`${label}: message #${i} (index ${got.index}) had isReplay=${got.isReplay}`);
    }
  }
}

async function publishToSession(transport: Transport, session: string, from: number, count: number) {
  const publisher = createPublisher({ transport, endpoint: Producer });
  for (let i = 0; i < count; i += PUBLISH_BATCH) {
    const items = Array.from({ length: Math.min(PUBLISH_BATCH, count - i) }, (_, k) => ({
      type: BenchEvent,
      payload: { index: from + i + k, data: BODY },
      sessionId: session,
    }));
    await publisher.publishMany(items);
  }
}

interface Result {
  readonly steady: number;
  readonly replay: number;
  readonly steadyMs: number;
  readonly replayMs: number;
}

const rate = (count: number, ms: number) => Math.round((count / ms) * 1000);
const indices = (count: number) => Array.from({ length: count }, (_, i) => i);

async function measure(transport: Transport, count: number): Promise<Result> {
  await transport.applyTopology(topologyFromPlatform(platform));
  const log = new HandlerLog();
  const steadySession = 'steady';
  const replaySession = 'replay';
  const subscriber = createSubscriber().on(BenchEvent, (event, context) => {
    log.handle(
      context.sessionId,
      replaySession,
      { index: event.index, isReplay: context.isReplay },
      context.raw.message,
    );
  });
  const host = createEndpointHost({
    platform,
    endpoint: Consumer,
    transport,
    subscriber,
    logger: silentLogger,
    processor: PROCESSOR,
  });
  try {
    // (1) steady state: a backlog of `count` new messages in one session, drained by the running host.
    await publishToSession(transport, steadySession, 0, count);
    const steadyStarted = performance.now();
    await host.start();
    await log.waitFor(steadySession, count, 'steady state');
    const steadyMs = performance.now() - steadyStarted;
    assertInOrder('steady state', log.seen(steadySession), indices(count), false);

    // (2) block the session with its first event, park `count` messages behind it, resubmit, time the replay.
    await publishToSession(transport, replaySession, BLOCKER, 1);
    await until(
      async () => log.failedEnvelope !== null && (await transport.counts(Consumer.id)).active === 0,
      () => 'the first event of the replay session did not fail and settle',
    );
    await publishToSession(transport, replaySession, 0, count);
    await until(
      async () => {
        const counts = await transport.counts(Consumer.id);
        return counts.parked === count && counts.active === 0;
      },
      () => `the ${count} messages behind the blocked event were not all parked`,
    );
    if (log.seen(replaySession).length !== 0) {
      throw new Error(
        `the blocked session handled ${log.seen(replaySession).length} messages before the resubmit`,
      );
    }
    const replayStarted = performance.now();
    await createOperatorClient(transport).resubmit(log.failedEnvelope!, { endpointId: Consumer.id });
    await log.waitFor(replaySession, count + 1, 'replay');
    const replayMs = performance.now() - replayStarted;
    assertInOrder('replay', log.seen(replaySession), [BLOCKER, ...indices(count)], true);
    await until(
      async () => (await transport.counts(Consumer.id)).parked === 0,
      () => 'parked messages left after the replay',
    );
    return { steady: rate(count, steadyMs), replay: rate(count, replayMs), steadyMs, replayMs };
  } finally {
    await host.stop();
  }
}

interface Target {
  readonly name: string;
  readonly count: number;
  open(): Promise<Transport>;
  dispose(): Promise<void>;
}

async function targets(): Promise<Target[]> {
  const wanted = (process.env.REPLAY_TRANSPORTS ?? 'memory,sqlite,postgres').split(',');
  const list: Target[] = [];
  if (wanted.includes('memory')) {
    list.push({
      name: 'memory',
      count: COUNT,
      open: async () => createMemoryTransport(),
      dispose: async () => undefined,
    });
  }
  if (wanted.includes('sqlite')) {
    const dir = mkdtempSync(join(tmpdir(), 'nimbus-bench-replay-'));
    list.push({
      name: 'sqlite',
      count: COUNT,
      open: () => createSqlTransport({ dialect: 'sqlite', path: join(dir, 'replay.db') }),
      dispose: async () => rmSync(dir, { recursive: true, force: true }),
    });
  }
  if (wanted.includes('postgres')) {
    const reason = await postgresUnavailableReason();
    if (reason === null) {
      const database = await createTemporaryDatabase('nimbus_bench_replay');
      list.push({
        name: 'postgres',
        count: COUNT_POSTGRES,
        open: () => createSqlTransport({ dialect: 'postgres', connectionString: database.url }),
        dispose: () => database.drop(),
      });
    } else {
      console.log(`PostgreSQL skipped: ${reason}`);
    }
  }
  return list;
}

console.log(
  'replay bench: one session, real endpoint host (SessionProcessor + MessageEngine), no-op handler; ' +
    `receiveBatchSize ${PROCESSOR.receiveBatchSize}, prefetchCount ${PROCESSOR.prefetchCount}`,
);
console.log(
  '  steady = drain N new messages of one session; replay = operator resubmit → N parked messages handled in order',
);
const benchStarted = performance.now();
for (const target of await targets()) {
  const transport = await target.open();
  try {
    const result = await measure(transport, target.count);
    console.log(
      `${target.name.padEnd(8)} N=${String(target.count).padEnd(6)} steady ${String(result.steady).padStart(6)} msg/s (${Math.round(result.steadyMs)} ms) | replay ${String(result.replay).padStart(6)} msg/s (${Math.round(result.replayMs)} ms) | replay/steady ${(result.replay / result.steady).toFixed(2)}`,
    );
  } finally {
    await transport.close();
    await target.dispose();
  }
}
console.log(`total ${((performance.now() - benchStarted) / 1000).toFixed(1)} s`);
