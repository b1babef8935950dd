// The NimBus measurements: throughput (transport only, or with full tracking: the rate of Completed store rows)
// and a steady load at a fixed rate (handler latency, store lag, first-turn wait per key).
import type { Transport } from '@nimbus/core';
import {
  type Backend,
  benchEvent,
  type ChildProcessHandle,
  type Dialect,
  type EndpointSettings,
  openBackend,
  openBusTransport,
  type Shape,
  startChild,
  startEndpoint,
  TOPOLOGY,
} from './nimbus.js';
import type { Workload } from './peers.js';
import { percentile, rate, resetStatements, sleep, statementReport, until } from './stats.js';

const PUBLISH_BATCH = 50;

/** Where tracking happens and where the endpoint runs. */
export interface RunMode {
  readonly shape: Shape;
  /** The endpoint in its own OS process rather than in this (the publishing) one. */
  readonly endpointProcess?: boolean;
}

interface Running {
  readonly backend: Backend;
  readonly transport: Transport;
  /** Statement counts the child processes printed when they stopped. */
  readonly childReports: string[];
}

async function withBackend<T>(
  dialect: Dialect,
  mode: RunMode,
  events: number,
  run: (running: Running, startChildEndpoint: () => Promise<void>) => Promise<T>,
): Promise<T> {
  const backend = await openBackend(dialect, mode.shape);
  let bus: Awaited<ReturnType<typeof openBusTransport>> | null = null;
  const children: ChildProcessHandle[] = [];
  const childReports: string[] = [];
  const env = { BENCH_REPORT_EVENTS: String(events) };
  try {
    bus = await openBusTransport(backend.config);
    await bus.transport.applyTopology(TOPOLOGY);
    if (mode.shape !== 'transport')
      children.push(await startChild('resolver-process.ts', backend.config, env));
    const startChildEndpoint = async () => {
      children.push(await startChild('endpoint-process.ts', backend.config, env));
    };
    return await run({ backend, transport: bus.transport, childReports }, startChildEndpoint);
  } finally {
    for (const child of children.reverse()) {
      const report = await child.stop();
      if (report) childReports.push(report);
    }
    await bus?.close();
    await backend.dispose();
  }
}

export interface ThroughputResult {
  readonly eventsPerSecond: number;
  readonly statements: string;
}

/** Publishes `work.events` events in batches while the endpoint drains them; tracking waits for the store. */
export async function nimbusThroughput(
  dialect: Dialect,
  work: Workload,
  mode: RunMode,
  settings: EndpointSettings,
): Promise<ThroughputResult> {
  let reports: string[] = [];
  const result = await withBackend(dialect, mode, work.events, async (running, startChildEndpoint) => {
    const { backend, transport } = running;
    reports = running.childReports;
    let handled = 0;
    const processor = mode.endpointProcess
      ? null
      : startEndpoint(transport, settings, {}, (n) => {
          handled += n;
        });
    if (mode.endpointProcess) await startChildEndpoint();
    resetStatements();
    const started = Date.now();
    await processor?.start();
    for (let i = 0; i < work.events; i += PUBLISH_BATCH) {
      const count = Math.min(PUBLISH_BATCH, work.events - i);
      const messages = Array.from({ length: count }, (_, k) =>
        benchEvent((i + k) % work.sessions, work.body),
      );
      await transport.publish([{ source: 'Crm', messages }]);
    }
    if (mode.shape === 'transport')
      await until(() => handled >= work.events, 'the endpoint to handle every event', 600_000, 5);
    else
      await until(
        async () => (await backend.completedCount()) >= work.events,
        'the store to show every event Completed',
        900_000,
        20,
      );
    const elapsed = Date.now() - started;
    const statements = statementReport(work.events);
    await processor?.stop();
    return { eventsPerSecond: rate(work.events, elapsed), statements };
  });
  const statements = [result.statements ? `this process: ${result.statements}` : '', ...reports]
    .filter((line) => line.length > 0)
    .join('\n      ');
  return { ...result, statements };
}

export interface SteadyResult {
  readonly rate: number;
  readonly keys: number;
  readonly published: number;
  readonly handlerP50: number;
  readonly handlerP99: number;
  readonly storeLagP50: number;
  readonly storeLagP95: number;
  readonly storeLagP99: number;
  /** Longest time any key waited from its first publish to its first handler start. */
  readonly maxFirstTurn: number;
  readonly storeMissing: number;
  readonly statements: string;
}

/**
 * Publishes at `perSecond` for `durationMs` (every 10 ms a slice, keys round robin) to the endpoint in this
 * process, tracking as `mode` says; then waits for the store to catch up and reads every Completed row's write
 * time.
 */
export function steadyLoad(
  dialect: Dialect,
  mode: RunMode,
  perSecond: number,
  keys: number,
  durationMs: number,
  body: string,
  settings: EndpointSettings,
): Promise<SteadyResult> {
  return withBackend(dialect, mode, 0, async ({ backend, transport }) => {
    const handlerLatency: number[] = [];
    const firstSent = new Map<number, number>();
    const firstStart = new Map<number, number>();
    const doneAt = new Map<string, number>();
    let handled = 0;
    const processor = startEndpoint(
      transport,
      settings,
      {
        onStart(payload) {
          const now = Date.now();
          handlerLatency.push(now - payload.sentAt);
          if (!firstStart.has(payload.key)) firstStart.set(payload.key, now);
        },
        onDone(eventId) {
          doneAt.set(eventId, Date.now());
        },
      },
      (n) => {
        handled += n;
      },
    );
    await processor.start();
    await sleep(500);
    resetStatements();
    const started = Date.now();
    let published = 0;
    let key = 0;
    while (Date.now() - started < durationMs) {
      const due = Math.floor(((Date.now() - started) / 1000) * perSecond);
      const count = Math.min(due - published, 500);
      if (count > 0) {
        const now = Date.now();
        const messages = Array.from({ length: count }, () => {
          const k = key;
          key = (key + 1) % keys;
          if (!firstSent.has(k)) firstSent.set(k, now);
          return benchEvent(k, body, now);
        });
        await transport.publish([{ source: 'Crm', messages }]);
        published += count;
      }
      await sleep(10);
    }
    await until(() => handled >= published, 'the endpoint to handle the steady load', 300_000, 10);
    const statements = statementReport(published);
    await until(
      async () => (await backend.completedCount()) >= published,
      'the store to catch up with the steady load',
      600_000,
      100,
    );
    await processor.stop();
    const lags: number[] = [];
    let storeMissing = 0;
    const rows = new Map((await backend.completedRows()).map((row) => [row.eventId, row.updatedAt]));
    for (const [eventId, done] of doneAt) {
      const written = rows.get(eventId);
      if (written === undefined) storeMissing += 1;
      else lags.push(Math.max(0, written - done));
    }
    let maxFirstTurn = 0;
    for (const [k, sent] of firstSent) {
      maxFirstTurn = Math.max(maxFirstTurn, (firstStart.get(k) ?? Number.POSITIVE_INFINITY) - sent);
    }
    return {
      rate: perSecond,
      keys,
      published,
      handlerP50: percentile(handlerLatency, 50),
      handlerP99: percentile(handlerLatency, 99),
      storeLagP50: percentile(lags, 50),
      storeLagP95: percentile(lags, 95),
      storeLagP99: percentile(lags, 99),
      maxFirstTurn,
      storeMissing,
      statements,
    };
  });
}
