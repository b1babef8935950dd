import {
  type Clock,
  childLogger,
  consoleLogger,
  LifecycleRunner,
  type Logger,
  NimBusError,
  NimBusErrorCode,
  type ProcessorErrorContext,
  RESOLVER_INPUT,
  type ServiceLifecycle,
  SessionProcessor,
  type SessionProcessorStats,
  type StopOptions,
  stopChild,
  systemClock,
  type Transport,
  withLifecycle,
} from '@nimbus/core';
import { refuseNotifier } from './notifier-refusal.js';
import { ResolverHandler, type ResolverStats } from './resolver-handler.js';
import type { ResolverStore } from './resolver-store.js';
import { RESOLVER_VERSION } from './version.js';

export interface ResolverOptions {
  /** Sessions handled at the same time; writes of different sessions overlap, one session stays in order. Default 32. */
  readonly maxConcurrentSessions?: number;
  /** Messages fetched per receive from one session. Default 16. */
  readonly receiveBatchSize?: number;
  /** A session idle this long is released. Default 1 000 ms. */
  readonly sessionIdleTimeoutMs?: number;
  /** How long one accept call waits. Default 1 000 ms. */
  readonly acceptWaitMs?: number;
  /** Reported in service health. Default: this package's version. */
  readonly version?: string;
  /** Auditor named on the audit rows of automatic retries. Default `Manager`. */
  readonly auditorName?: string;
  /** How long `stop()` lets in-flight projections finish. Default 30 000 ms. */
  readonly drainTimeoutMs?: number;
  /**
   * How often the Resolver renews a session's lease (its length is the transport's `lockDurationMs`). Default:
   * a third of the lease (`SessionProcessor` option `leaseRenewalIntervalMs`).
   */
  readonly leaseRenewalIntervalMs?: number;
  /** The lease fence's safety margin (`SessionProcessor` option `leaseSafetyMarginMs`). Default: a tenth of the lease. */
  readonly leaseSafetyMarginMs?: number;
}

export interface CreateResolverArgs {
  readonly transport: Transport;
  readonly store: ResolverStore;
  /** Refused: the store notifies (its notification link tells the notifier after each committed write). */
  readonly notifier?: never;
  readonly logger?: Logger;
  readonly clock?: Clock;
  readonly options?: ResolverOptions;
  /** Observes every processor-level error (already logged). */
  readonly onError?: (error: unknown, context: ProcessorErrorContext) => void;
}

/** On the one lifecycle (`ServiceLifecycle`): a stopped Resolver is not started again; create a new one. */
export interface Resolver extends ServiceLifecycle {
  start(): Promise<void>;
  /**
   * Finishes in-flight messages (within `timeoutMs`, default `drainTimeoutMs`; past it their signals are aborted),
   * releases every session. `abort()` does the same without the drain.
   */
  stop(options?: StopOptions): Promise<void>;
  readonly running: boolean;
  readonly stats: ResolverStats & { readonly processor: SessionProcessorStats };
}

export class ResolverOptionsError extends NimBusError<typeof NimBusErrorCode.InvalidOption> {
  override readonly name = 'ResolverOptionsError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(NimBusErrorCode.InvalidOption, message, options);
  }
}

function requireMethod(target: unknown, name: string, what: string): void {
  if (!target || typeof (target as Record<string, unknown>)[name] !== 'function') {
    throw new ResolverOptionsError(`createResolver: ${what} must implement ${name}()`);
  }
}

/** The worker that turns the stream of requests and outcomes on the Resolver input into the store's picture. */
export function createResolver(args: CreateResolverArgs): Resolver {
  if (!args || typeof args !== 'object')
    throw new ResolverOptionsError('createResolver: arguments are required');
  refuseNotifier(args, 'createResolver');
  requireMethod(args.transport, 'acceptSession', 'transport');
  for (const method of [
    'writeBatch',
    'writeStatus',
    'storeMessage',
    'storeMessageAudit',
    'getMessage',
  ] as const) {
    requireMethod(args.store, method, 'store');
  }
  const options = args.options ?? {};
  const logger = childLogger(args.logger ?? consoleLogger, { component: 'resolver' });
  const clock = args.clock ?? systemClock;
  const handler = new ResolverHandler({
    // Store calls are traced by the store's own decorator chain (`traceStoreCalls`).
    store: args.store,
    logger,
    clock,
    version: options.version ?? RESOLVER_VERSION,
    auditorName: options.auditorName ?? 'Manager',
  });
  const processor = new SessionProcessor({
    transport: args.transport,
    input: RESOLVER_INPUT,
    handler,
    maxConcurrentSessions: options.maxConcurrentSessions ?? 128,
    receiveBatchSize: options.receiveBatchSize ?? 16,
    sessionIdleTimeoutMs: options.sessionIdleTimeoutMs ?? 1_000,
    acceptWaitMs: options.acceptWaitMs ?? 1_000,
    ...(options.drainTimeoutMs === undefined ? {} : { drainTimeoutMs: options.drainTimeoutMs }),
    ...(options.leaseRenewalIntervalMs === undefined
      ? {}
      : { leaseRenewalIntervalMs: options.leaseRenewalIntervalMs }),
    ...(options.leaseSafetyMarginMs === undefined
      ? {}
      : { leaseSafetyMarginMs: options.leaseSafetyMarginMs }),
    clock,
    logger,
    ...(args.onError ? { onError: args.onError } : {}),
  });
  const lifecycle = new LifecycleRunner(
    {
      start: () => processor.start(),
      // Back-offs end first: their messages stay unsettled and come back in order to the next holder.
      stop: (context) => {
        handler.stop();
        return stopChild(processor, context);
      },
    },
    { name: 'the Resolver' },
  );
  const resolver = {
    get running() {
      return lifecycle.state === 'running';
    },
    get stats() {
      return { ...handler.stats, processor: processor.stats };
    },
  };
  return withLifecycle(resolver, lifecycle);
}
