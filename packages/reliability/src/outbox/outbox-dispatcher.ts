import {
  type Clock,
  consoleLogger,
  countMetric,
  type LifecycleRunner,
  type Logger,
  loopLifecycle,
  MetricName,
  NimBusError,
  NimBusErrorCode,
  Outcome,
  parseTraceParent,
  RunnerLifecycle,
  recordDuration,
  SpanName,
  systemClock,
  TelemetryAttribute,
  TelemetryScope,
  type Transport,
  withSpan,
} from '@nimbus/core';
import { SpanKind } from '@opentelemetry/api';
import type { OutboxMessage, OutboxStore } from './outbox-store.js';
import { isOutboxTransport } from './outbox-transport.js';

export interface OutboxDispatcherOptions {
  readonly outbox: OutboxStore;
  /** The real transport the rows are sent through (not the outbox-decorated one). */
  readonly transport: Transport;
  /** Rows per poll. Default 100. */
  readonly batchSize?: number;
  /** Sleep between polls when the last one was not full. Default 1 000 ms. */
  readonly pollIntervalMs?: number;
  /** Dispatched rows older than this are purged; `0` keeps them forever. Default 7 days. */
  readonly retentionMs?: number;
  /** How often the purge runs. Default 1 hour. */
  readonly purgeIntervalMs?: number;
  readonly clock?: Clock;
  readonly logger?: Logger;
}

export class OutboxDispatcherConfigurationError extends NimBusError<typeof NimBusErrorCode.InvalidOption> {
  override readonly name = 'OutboxDispatcherConfigurationError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(NimBusErrorCode.InvalidOption, message, options);
  }
}

function positive(name: string, value: number, min: number): number {
  if (!Number.isFinite(value) || value < min) {
    throw new OutboxDispatcherConfigurationError(
      `OutboxDispatcher option ${name} must be a number ≥ ${min}, got ${String(value)}`,
    );
  }
  return value;
}

/**
 * Sends committed outbox rows through the real transport, at least once: send, then mark dispatched (a crash in
 * between sends the row again). Rows go out oldest first; once a row of a session fails in a poll, the session's
 * later rows wait for the next poll, so per-session order holds. On the one lifecycle (`RunnerLifecycle`): a
 * stopped dispatcher is not started again.
 */
export class OutboxDispatcher extends RunnerLifecycle {
  protected readonly lifecycle: LifecycleRunner;
  readonly #outbox: OutboxStore;
  readonly #transport: Transport;
  readonly #batchSize: number;
  readonly #pollIntervalMs: number;
  readonly #retentionMs: number;
  readonly #purgeIntervalMs: number;
  readonly #clock: Clock;
  readonly #logger: Logger;
  #lastPurge = Number.NEGATIVE_INFINITY;

  constructor(options: OutboxDispatcherOptions) {
    super();
    if (!options?.outbox)
      throw new OutboxDispatcherConfigurationError('OutboxDispatcher needs an outbox store');
    if (!options.transport || typeof options.transport.publish !== 'function') {
      throw new OutboxDispatcherConfigurationError(
        'OutboxDispatcher needs the real transport to send through; none was given',
      );
    }
    if (isOutboxTransport(options.transport)) {
      throw new OutboxDispatcherConfigurationError(
        'OutboxDispatcher was given the outbox-decorated transport, which only writes back to the outbox; pass the real (undecorated) transport',
      );
    }
    this.#outbox = options.outbox;
    this.#transport = options.transport;
    this.#batchSize = positive('batchSize', options.batchSize ?? 100, 1);
    this.#pollIntervalMs = positive('pollIntervalMs', options.pollIntervalMs ?? 1_000, 1);
    this.#retentionMs = positive('retentionMs', options.retentionMs ?? 7 * 24 * 3_600_000, 0);
    this.#purgeIntervalMs = positive('purgeIntervalMs', options.purgeIntervalMs ?? 3_600_000, 0);
    this.#clock = options.clock ?? systemClock;
    this.#logger = options.logger ?? consoleLogger;
    this.lifecycle = loopLifecycle(({ stopping }) => this.#poll(stopping), { name: 'the outbox dispatcher' });
  }

  get running(): boolean {
    return this.state === 'running';
  }

  /** One poll: sends up to `batchSize` pending rows and marks the sent ones. Returns how many were sent. */
  async dispatchPending(): Promise<number> {
    const rows = await this.#outbox.getPending(this.#batchSize);
    const failedSessions = new Set<string>();
    const sent: string[] = [];
    try {
      for (const row of rows) {
        if (failedSessions.has(row.sessionId)) continue;
        const started = this.#clock.now();
        try {
          await this.#send(row);
          sent.push(row.id);
          countMetric(TelemetryScope.Outbox, MetricName.OutboxDispatched, {
            [TelemetryAttribute.Outcome]: Outcome.Dispatched,
          });
        } catch (error) {
          failedSessions.add(row.sessionId);
          countMetric(TelemetryScope.Outbox, MetricName.OutboxDispatched, {
            [TelemetryAttribute.Outcome]: Outcome.Failed,
          });
          this.#logger.warn(
            { outboxId: row.id, messageId: row.messageId, sessionId: row.sessionId, error },
            'Outbox dispatch of a row failed; it is retried at the next poll',
          );
        } finally {
          recordDuration(
            TelemetryScope.Outbox,
            MetricName.OutboxDispatchDuration,
            this.#clock.now() - started,
          );
        }
      }
    } finally {
      if (sent.length > 0) await this.#outbox.markAsDispatched(sent);
    }
    return sent.length;
  }

  #send(row: OutboxMessage): Promise<void> {
    const origin = parseTraceParent(row.traceParent, row.traceState);
    return withSpan(
      SpanName.outboxDispatch(row.destination ?? row.source),
      {
        [TelemetryAttribute.MessagingSystem]: this.#transport.name,
        [TelemetryAttribute.OperationType]: 'publish',
        [TelemetryAttribute.DestinationName]: row.destination ?? row.source,
        [TelemetryAttribute.MessageId]: row.messageId,
        [TelemetryAttribute.SessionKey]: row.sessionId,
      },
      async (span) => {
        if (!origin) span.addEvent('nimbus.outbox.orphan_row');
        await this.#transport.publish([
          {
            source: row.source,
            messages: [row.message],
            ...(row.enqueueAt ? { enqueueAt: row.enqueueAt } : {}),
          },
        ]);
      },
      { scope: TelemetryScope.Outbox, kind: SpanKind.PRODUCER, links: origin ? [{ context: origin }] : [] },
    );
  }

  /** Deletes dispatched rows older than the retention when the purge interval has passed. */
  async purgeIfDue(): Promise<number> {
    const now = this.#clock.now();
    if (this.#retentionMs === 0 || now - this.#lastPurge < this.#purgeIntervalMs) return 0;
    this.#lastPurge = now;
    const purged = await this.#outbox.purgeDispatched(new Date(now - this.#retentionMs));
    if (purged > 0) countMetric(TelemetryScope.Outbox, MetricName.OutboxPurged, {}, purged);
    return purged;
  }

  /**
   * The background loop `start()` runs until `stop()`: errors are logged and the loop carries on. `stop()` waits
   * for the poll under way (its sent rows are marked), within `timeoutMs`.
   */
  async #poll(stopping: AbortSignal): Promise<void> {
    while (!stopping.aborted) {
      let full = false;
      try {
        full = (await this.dispatchPending()) >= this.#batchSize;
        await this.purgeIfDue();
      } catch (error) {
        this.#logger.error({ error }, 'Outbox dispatcher poll failed; retrying after the poll interval');
      }
      if (!full) await this.#clock.sleep(this.#pollIntervalMs, stopping);
    }
  }
}
