import { NimBusErrorCode } from '../errors/error-codes.js';
import { NimBusError } from '../errors/nimbus-error.js';
import type { Transport } from '../transport/transport.js';

/** What a readiness probe answers: ready, or why not (one line, no secrets). */
export interface Readiness {
  readonly ready: boolean;
  readonly reason?: string;
}

/** A component that can say whether it can do its work now (e.g. its database answers). */
export interface ReadinessProbe {
  checkReadiness(): Promise<Readiness>;
}

export interface ReadinessReport {
  readonly ready: boolean;
  readonly checks: Readonly<Record<string, Readiness>>;
}

export interface ProbeReadinessOptions {
  /** Default 2 000 ms: a dependency that answers slower is reported as not ready. */
  readonly timeoutMs?: number;
  /** Turns a failure into the one-line reason (default: its message); SQL callers pass `describeDriverError`. */
  readonly describeError?: (error: unknown) => string;
}

const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * The one readiness probe: runs a cheap check with a deadline; a failing or hanging dependency is reported as
 * `{ ready: false, reason: '<what>: <why>' }`, never thrown.
 */
export async function probeReadiness(
  what: string,
  probe: () => Promise<unknown>,
  options: ProbeReadinessOptions = {},
): Promise<Readiness> {
  const timeoutMs = options.timeoutMs ?? 2_000;
  const describe = options.describeError ?? errorMessage;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Readiness>((resolve) => {
    timer = setTimeout(
      () => resolve({ ready: false, reason: `${what}: no answer within ${timeoutMs} ms` }),
      timeoutMs,
    );
    timer.unref();
  });
  try {
    return await Promise.race([
      Promise.resolve()
        .then(probe)
        .then(
          (): Readiness => ({ ready: true }),
          (error: unknown): Readiness => ({ ready: false, reason: `${what}: ${describe(error)}` }),
        ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The component's own `checkReadiness()` when it has one (the SQL store checks its migrations too),
 * else a probe of a cheap read.
 */
export function readinessOf(
  component: unknown,
  what: string,
  cheapRead: () => Promise<unknown>,
): Promise<Readiness> {
  const own = (component as Partial<ReadinessProbe> | null)?.checkReadiness;
  if (typeof own === 'function')
    return probeReadiness(what, async () => {
      const readiness = await own.call(component);
      if (!readiness.ready)
        throw new NimBusError(NimBusErrorCode.ServiceUnavailable, readiness.reason ?? 'not ready');
    });
  return probeReadiness(what, cheapRead);
}

/** Runs every check at once; ready when all are. */
export async function readinessReport(
  checks: Readonly<Record<string, () => Promise<Readiness>>>,
): Promise<ReadinessReport> {
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, check]) => [name, await check()] as const),
  );
  return { ready: entries.every(([, r]) => r.ready), checks: Object.fromEntries(entries) };
}

/** What a NimBus service depends on; typed structurally so core needs no store package. */
export interface ServiceReadinessSources {
  /** The message store: its `checkReadiness()`, else a cheap read of the heartbeat settings. */
  readonly store: { getHeartbeatSettings(): Promise<unknown> };
  /** The transport: its `checkReadiness()`, else `getTopology()`. */
  readonly transport: Pick<Transport, 'getTopology'>;
  /**
   * A process that shows other processes' changes (the WebApp) passes its state-change notifier: a
   * cross-process one says whether it hears the others (`listening`), and while it does not, the
   * process is not ready (its UI would silently stop updating).
   */
  readonly liveUpdates?: object;
}

/**
 * `/readyz` of every NimBus service (the WebApp and the Resolver's health port): the store answers with a
 * current schema, the transport answers, and (when given) live updates are connected.
 */
export function serviceReadiness(sources: ServiceReadinessSources): Promise<ReadinessReport> {
  const { store, transport, liveUpdates } = sources;
  const checks: Record<string, () => Promise<Readiness>> = {
    store: () => readinessOf(store, 'store', () => store.getHeartbeatSettings()),
    transport: () => readinessOf(transport, 'transport', () => transport.getTopology()),
  };
  if (liveUpdates && typeof (liveUpdates as { listening?: unknown }).listening === 'boolean')
    checks.liveUpdates = async () =>
      (liveUpdates as { listening: boolean }).listening
        ? { ready: true }
        : { ready: false, reason: 'live updates: the state-change listener is reconnecting' };
  return readinessReport(checks);
}

/** The HTTP answer to `/readyz`: 200 when ready, 503 otherwise, with every check and its reason. */
export function readinessAnswer(report: ReadinessReport): {
  readonly statusCode: 200 | 503;
  readonly body: ReadinessReport & { readonly status: 'ready' | 'not ready' };
} {
  return {
    statusCode: report.ready ? 200 : 503,
    body: { status: report.ready ? 'ready' : 'not ready', ...report },
  };
}
