import {
  type Clock,
  consoleLogger,
  countMetric,
  type Logger,
  type MessageEnvelope,
  MessageType,
  MetricName,
  NimBusError,
  NimBusErrorCode,
  systemClock,
  TelemetryAttribute,
  TelemetryScope,
} from '@nimbus/core';
import { type InboxStore, InboxStoreError, inboxBypassReason } from './inbox-store.js';

export const DEFAULT_INBOX_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
export const DEFAULT_INBOX_CLEANUP_INTERVAL_MS = 60 * 60 * 1000;

export interface InboxOptions {
  /** Required: where records live (`MemoryInboxStore`, `createSqliteInboxStore`, `createPostgresInboxStore`). */
  readonly store?: InboxStore;
  /** How long a record keeps deduplicating. Default 7 days. */
  readonly retentionMs?: number;
  /** How often the periodic cleanup purges expired records. Default 1 hour. */
  readonly cleanupIntervalMs?: number;
  readonly clock?: Clock;
  readonly logger?: Logger;
}

/** `process`: run the handler; `duplicate`: skip it; `bypass`: ids unusable for deduplication, run unguarded. */
export type InboxDecision = 'process' | 'duplicate' | 'bypass';

export class InboxConfigurationError extends NimBusError<typeof NimBusErrorCode.InvalidOption> {
  override readonly name = 'InboxConfigurationError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(NimBusErrorCode.InvalidOption, message, options);
  }
}

/**
 * Fails fast when a subscriber turns the inbox on without a store (or with invalid timings), naming the endpoint
 * and what to pass.
 */
export function assertInboxConfigured(
  options: InboxOptions | undefined,
  endpointId: string,
): asserts options is InboxOptions & { readonly store: InboxStore } {
  const where = `Inbox of endpoint ${endpointId}`;
  if (!options?.store) {
    throw new InboxConfigurationError(
      `${where} is enabled but has no store: pass { store: new MemoryInboxStore() | createSqliteInboxStore(db) | createPostgresInboxStore(pool) }`,
    );
  }
  for (const key of ['hasProcessed', 'recordProcessed', 'purgeExpired'] as const) {
    if (typeof options.store[key] !== 'function') {
      throw new InboxConfigurationError(
        `${where}: the store has no ${key} function; it is not an InboxStore`,
      );
    }
  }
  for (const key of ['retentionMs', 'cleanupIntervalMs'] as const) {
    const value = options[key];
    if (value !== undefined && !(Number.isFinite(value) && value > 0)) {
      throw new InboxConfigurationError(
        `${where}: ${key} must be a positive number of milliseconds, got ${String(value)}`,
      );
    }
  }
}

export interface Inbox {
  readonly store: InboxStore;
  readonly retentionMs: number;
  /** Has this endpoint already handled this message? Store failures throw `InboxStoreError`. */
  check(endpointId: string, messageId: string, signal?: AbortSignal): Promise<InboxDecision>;
  /** Records a successful handling; call only after the handler succeeded with the default outcome. */
  record(endpointId: string, messageId: string, signal?: AbortSignal): Promise<void>;
  /** Purges this endpoint's records older than the retention; returns how many went. */
  purgeExpired(endpointId: string): Promise<number>;
  /** Starts the periodic cleanup for one endpoint; returns a function that stops it and waits for it. */
  startCleanup(endpointId: string): () => Promise<void>;
}

function failed(
  operation: 'check' | 'record' | 'purge',
  endpointId: string,
  error: unknown,
): InboxStoreError {
  countMetric(TelemetryScope.Inbox, MetricName.InboxOperationFailed, {
    [TelemetryAttribute.StoreOperation]: operation,
    [TelemetryAttribute.Endpoint]: endpointId,
  });
  return new InboxStoreError(operation, { cause: error });
}

function isAbort(error: unknown, signal?: AbortSignal): boolean {
  return signal?.aborted === true && (error === signal.reason || (error as Error)?.name === 'AbortError');
}

export function createInbox(options: InboxOptions & { readonly store: InboxStore }): Inbox {
  assertInboxConfigured(options, '(any)');
  const { store } = options;
  const retentionMs = options.retentionMs ?? DEFAULT_INBOX_RETENTION_MS;
  const cleanupIntervalMs = options.cleanupIntervalMs ?? DEFAULT_INBOX_CLEANUP_INTERVAL_MS;
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? consoleLogger;

  const inbox: Inbox = {
    store,
    retentionMs,
    async check(endpointId, messageId, signal) {
      const bypass = inboxBypassReason(endpointId, messageId);
      if (bypass) {
        logger.warn({ endpointId, messageId }, `Inbox check bypassed: ${bypass}`);
        return 'bypass';
      }
      let processed: boolean;
      try {
        processed = await store.hasProcessed(endpointId, messageId, signal);
      } catch (error) {
        if (isAbort(error, signal)) throw error;
        throw failed('check', endpointId, error);
      }
      if (!processed) return 'process';
      countMetric(TelemetryScope.Inbox, MetricName.InboxDuplicateDetected, {
        [TelemetryAttribute.Endpoint]: endpointId,
      });
      logger.info({ endpointId, messageId }, 'Inbox: duplicate delivery detected, the handler is skipped');
      return 'duplicate';
    },
    async record(endpointId, messageId, signal) {
      if (inboxBypassReason(endpointId, messageId)) return;
      try {
        await store.recordProcessed(endpointId, messageId, signal);
      } catch (error) {
        if (isAbort(error, signal)) throw error;
        throw failed('record', endpointId, error);
      }
    },
    async purgeExpired(endpointId) {
      try {
        return await store.purgeExpired(endpointId, new Date(clock.now() - retentionMs));
      } catch (error) {
        throw failed('purge', endpointId, error);
      }
    },
    startCleanup(endpointId) {
      const stop = new AbortController();
      const loop = (async () => {
        while (!stop.signal.aborted) {
          try {
            const purged = await inbox.purgeExpired(endpointId);
            if (purged > 0) countMetric(TelemetryScope.Inbox, MetricName.InboxPurged, {}, purged);
          } catch (error) {
            logger.error({ endpointId, error }, 'Inbox cleanup failed; retried at the next interval');
          }
          await clock.sleep(cleanupIntervalMs, stop.signal);
        }
      })();
      return async () => {
        stop.abort();
        await loop;
      };
    },
  };
  return inbox;
}

/** The message types the inbox guards: the ones that run the business handler. */
export const INBOX_GUARDED_TYPES: ReadonlySet<string> = new Set([
  MessageType.EventRequest,
  MessageType.RetryRequest,
  MessageType.ResubmissionRequest,
]);

export type InboxGuardResult =
  | { readonly action: 'process'; readonly guarded: boolean }
  | { readonly action: 'skip'; readonly reason: 'DuplicateDetected' };

/**
 * The inbox step for hand-written consumers (the engine makes the same decision itself when given the
 * inbox). `skip` means: do not call the handler; send a `SkipResponse` (reason `DuplicateDetected`) to the
 * Resolver and complete the message. `guarded: true` means: after a handler success with the default
 * outcome, call `inbox.record(endpointId, envelope.messageId)` before sending the `ResolutionResponse`.
 */
export async function inboxGuard(
  inbox: Inbox,
  endpointId: string,
  envelope: Pick<MessageEnvelope, 'messageId' | 'messageType'>,
  signal?: AbortSignal,
): Promise<InboxGuardResult> {
  if (!INBOX_GUARDED_TYPES.has(envelope.messageType)) return { action: 'process', guarded: false };
  const decision = await inbox.check(endpointId, envelope.messageId, signal);
  if (decision === 'duplicate') return { action: 'skip', reason: 'DuplicateDetected' };
  return { action: 'process', guarded: decision === 'process' };
}
