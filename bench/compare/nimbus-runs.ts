// The NimBus measurements: throughput (transport only, or with full tracking: the rate of Completed store rows)
// and a steady load at a fixed rate (handler latency, store lag, first-turn wait per key).
import type { Transport } from '@nimbus/core';
import {
  type Backend,
  benchEvent,
  type Dialect,
  type EndpointSettings,
  openBackend,
  startEndpoint,
  startResolverProcess,
  TOPOLOGY,
} from './nimbus.js';
import type { Workload } from './peers.js';
import { percentile, rate, resetStatements, sleep, statementReport, until } from './stats.js';

const PUBLISH_BATCH = 50;

async function withBackend<T>(
  dialect: Dialect,
  tracking: boolean,
  run: (backend: Backend, transport: Transport) => Promise<T>,
): Promise<T> {
  const backend = await openBackend(dialect);
  let transport: Transport | null = null;
  let resolver: { stop(): Promise<void> } | null = null;
  try {
    transport = await backend.openTransport();
    await transport.applyTopology(TOPOLOGY);
    if (tracking) resolver = await startResolverProcess(backend);
    return await run(backend, transport);
  } finally {
    await resolver?.stop();
    await transport?.close();
    await backend.dispose();
  }
}

export interface ThroughputResult {
  readonly eventsPerSecond: number;
  readonly statements: string;
}

/** Publishes `work.events` events in batches while the endpoint drains them; tracking waits for the store. */
export function nimbusThroughput(
  dialect: Dialect,
  work: Workload,
  tracking: boolean,
  settings: EndpointSettings,
): Promise<ThroughputResult> {
  return withBackend(dialect, tracking, async (backend, transport) => {
    let handled = 0;
    const processor = startEndpoint(transport, settings, {}, (n) => {
      handled += n;
    });
    resetStatements();
    const started = Date.now();
    await processor.start();
    for (let i = 0; i < work.events; i += PUBLISH_BATCH) {
      const count = Math.min(PUBLISH_BATCH, work.events - i);
      const messages = Array.from({ length: count }, (_, k) =>
        benchEvent((i + k) % work.sessions, work.body),
      );
      await transport.publish([{ source: 'Crm', messages }]);
    }
    await until(() => handled >= work.events, 'the endpoint to handle every event', 600_000, 5);
    if (tracking) {
      await until(
        async () => (await backend.completedCount()) >= work.events,
        'the store to show every event Completed',
        900_000,
        50,
      );
    }
    const elapsed = Date.now() - started;
    const statements = statementReport(work.events);
    await processor.stop();
    return { eventsPerSecond: rate(work.events, elapsed), statements };
  });
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
 * Publishes at `perSecond` for `durationMs` (every 10 ms a slice, keys round robin), with the Resolver as a
 * separate process; then waits for the store to catch up and reads every Completed row's write time.
 */
export function steadyLoad(
  dialect: Dialect,
  perSecond: number,
  keys: number,
  durationMs: number,
  body: string,
  settings: EndpointSettings,
): Promise<SteadyResult> {
  return withBackend(dialect, true, async (backend, transport) => {
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
