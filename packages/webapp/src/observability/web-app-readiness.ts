import {
  type Readiness,
  type ReadinessReport,
  readinessOf,
  readinessReport,
  type Transport,
} from '@nimbus/core';
import type { NimBusMessageStore } from '@nimbus/message-store';

export interface ReadinessSources {
  readonly store: Pick<NimBusMessageStore, 'getHeartbeatSettings'>;
  readonly transport: Pick<Transport, 'getTopology'>;
  /** A cross-process notifier says whether it hears other processes. */
  readonly notifier: object;
}

/**
 * The WebApp is ready when its store answers with a current schema, its transport answers, and (with a
 * cross-process notifier) live updates are flowing: otherwise the UI would silently stop updating.
 */
export function webAppReadiness(sources: ReadinessSources): Promise<ReadinessReport> {
  const checks: Record<string, () => Promise<Readiness>> = {
    store: () => readinessOf(sources.store, 'store', () => sources.store.getHeartbeatSettings()),
    transport: () => readinessOf(sources.transport, 'transport', () => sources.transport.getTopology()),
  };
  const listening = (sources.notifier as { listening?: unknown }).listening;
  if (typeof listening === 'boolean')
    checks.liveUpdates = async () =>
      (sources.notifier as { listening: boolean }).listening
        ? { ready: true }
        : { ready: false, reason: 'live updates: the state-change listener is reconnecting' };
  return readinessReport(checks);
}
