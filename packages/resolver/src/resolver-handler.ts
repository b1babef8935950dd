import {
  type Clock,
  countMetric,
  decodeEnvelope,
  extractTraceContext,
  InvalidMessageError,
  isTransportError,
  type Logger,
  type MessageEnvelope,
  MessageType,
  MetricName,
  Outcome,
  type ReceivedMessage,
  recordDuration,
  type SessionHandle,
  type SessionMessageHandler,
  SpanName,
  TelemetryAttribute,
  TelemetryScope,
  withSpan,
} from '@nimbus/core';
import { MessageAuditType, type MessageStateChangeNotifier } from '@nimbus/message-store';
import { determineEndpoint } from './endpoint.js';
import { handoffProcessingTimeMs } from './handoff-timing.js';
import { handleHeartbeatTraffic, isHeartbeatTraffic } from './heartbeat/heartbeat-traffic.js';
import { redeliveryOf, restoreOriginalAddress } from './redelivery.js';
import { auditRefusal } from './refusal-audit.js';
import type { ResolverStore } from './resolver-store.js';
import { notifySafely } from './safe-notifier.js';
import { hasStatus, isHistoryOnly, resultingStatus } from './status-mapping.js';
import { describeError, isTransientStoreError, retryAfterMsOf } from './store-errors.js';
import { MAX_THROTTLE_RETRIES, throttleDelayMs } from './throttle.js';
import { historyRecord, type ResolverInput, stateRow } from './tracking-records.js';

export const DeadLetterReasons = {
  invalidMessage: 'Invalid message',
  failed: 'Failed to handle message.',
  maxThrottleRetries: 'Max throttle retries exceeded',
} as const;

export interface ResolverHandlerDeps {
  readonly store: ResolverStore;
  readonly notifier: MessageStateChangeNotifier;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly version: string;
  /** The auditor named on audit rows the Resolver writes for system actions (retries). */
  readonly auditorName: string;
}

/** Counters since start, for health views, tests and the benchmark. */
export interface ResolverStats {
  recorded: number;
  refused: number;
  heartbeats: number;
  rescheduled: number;
  deadLettered: number;
}

/**
 * Projects each message on the Resolver input into the store, then settles it. Store failures never escape:
 * transient ones reschedule the message with back-off, anything else dead-letters it with a reason.
 * Settlement failures (lock lost, transport closed) are left to the session processor.
 */
export class ResolverHandler implements SessionMessageHandler {
  readonly stats: ResolverStats = { recorded: 0, refused: 0, heartbeats: 0, rescheduled: 0, deadLettered: 0 };

  constructor(private readonly deps: ResolverHandlerDeps) {}

  async handleMessage(session: SessionHandle, message: ReceivedMessage): Promise<void> {
    let envelope: MessageEnvelope;
    try {
      envelope = decodeEnvelope(restoreOriginalAddress(message));
    } catch (error) {
      const problems =
        error instanceof InvalidMessageError ? error.problems.join('; ') : describeError(error);
      this.deps.logger.warn(
        { messageId: message.messageId, problems },
        'Resolver dead-letters an unreadable message',
      );
      await session.deadLetter(message, DeadLetterReasons.invalidMessage, problems);
      this.stats.deadLettered += 1;
      return;
    }
    const input: ResolverInput = { envelope, headers: message.headers, enqueuedAt: message.enqueuedAt };
    try {
      await this.#traced(message, envelope, () => this.#project(input));
    } catch (error) {
      if (isTransportError(error)) throw error;
      await this.#onStoreFailure(session, message, envelope, error);
      return;
    }
    await session.complete(message);
  }

  /** The write continues the trace of the response it projects (its `traceparent`); counted and timed. */
  async #traced(message: ReceivedMessage, m: MessageEnvelope, write: () => Promise<void>): Promise<void> {
    const started = this.deps.clock.now();
    const attributes = {
      [TelemetryAttribute.MessageType]: m.messageType,
      [TelemetryAttribute.Endpoint]: m.from ?? m.to,
    };
    let outcome: string = Outcome.Failed;
    try {
      await withSpan(
        SpanName.ResolverWrite,
        {
          ...attributes,
          [TelemetryAttribute.MessageId]: m.messageId,
          [TelemetryAttribute.SessionKey]: m.sessionId,
          ...(m.eventTypeId ? { [TelemetryAttribute.EventType]: m.eventTypeId } : {}),
        },
        write,
        { scope: TelemetryScope.Resolver, parent: extractTraceContext(message.headers) },
      );
      outcome = Outcome.Completed;
    } finally {
      const measured = { ...attributes, [TelemetryAttribute.Outcome]: outcome };
      countMetric(TelemetryScope.Resolver, MetricName.ResolverWrites, measured);
      recordDuration(
        TelemetryScope.Resolver,
        MetricName.ResolverWriteDuration,
        this.deps.clock.now() - started,
        measured,
      );
    }
  }

  async #project(input: ResolverInput): Promise<void> {
    const { store, notifier, logger } = this.deps;
    const m = input.envelope;
    if (isHeartbeatTraffic(m)) {
      await handleHeartbeatTraffic(m, input.enqueuedAt, {
        metadata: typeof store.setHeartbeat === 'function' ? (store as Required<ResolverStore>) : null,
        serviceHealth:
          typeof store.setServiceHealth === 'function' ? (store as Required<ResolverStore>) : null,
        notifier,
        logger,
        clock: this.deps.clock,
        version: this.deps.version,
      });
      this.stats.heartbeats += 1;
      return;
    }
    const endpoint = determineEndpoint(m);
    const record = historyRecord(input, endpoint);
    if (m.messageType === MessageType.RetryRequest) {
      const firstSighting = await store.storeMessage(record);
      await this.#auditRetry(record.eventId, m, firstSighting);
    } else if (isHistoryOnly(m)) {
      // Operator requests and the engine's refusals change no status by themselves (see isHistoryOnly).
      const firstSighting = await store.storeMessage(record);
      if (m.messageType === MessageType.RefusalResponse) {
        await auditRefusal(store, record, m, firstSighting, this.deps);
      }
      return;
    } else if (!hasStatus(m)) {
      // Any other type without a status keeps its history record and is dead-lettered by resultingStatus below.
      await store.storeMessage(record);
    }
    const status = resultingStatus(m);
    const writeStatus = async () => {
      const processingTimeMs = await handoffProcessingTimeMs(store, m, this.deps.clock);
      const row = stateRow(record, processingTimeMs ?? record.processingTimeMs ?? null);
      return store.writeStatus({
        key: { endpointId: endpoint.endpointId, eventId: record.eventId, sessionId: m.sessionId },
        status,
        content: row,
      });
    };
    // History and status go to different records, so they are written together (both idempotent on retry).
    const written =
      m.messageType === MessageType.RetryRequest
        ? await writeStatus()
        : (await Promise.all([store.storeMessage(record), writeStatus()]))[1];
    if (!written) {
      this.stats.refused += 1;
      logger.debug(
        { eventId: record.eventId, endpointId: endpoint.endpointId, messageId: m.messageId, status },
        'Stale write refused: the row already holds a later outcome',
      );
      return;
    }
    this.stats.recorded += 1;
    await notifySafely(notifier, logger, 'notifyEndpointStateChanged', endpoint.endpointId);
  }

  /** One Retry audit per retry message, even when the message is seen again after a failure. */
  async #auditRetry(eventId: string, m: MessageEnvelope, firstSighting: boolean): Promise<void> {
    const { store } = this.deps;
    if (!firstSighting) {
      const audits = await store.getMessageAudits(eventId);
      if (audits.some((a) => a.auditType === MessageAuditType.Retry && a.data === m.messageId)) return;
    }
    await store.storeMessageAudit({
      eventId,
      audit: {
        auditorName: this.deps.auditorName,
        auditTimestamp: new Date(this.deps.clock.now()),
        auditType: MessageAuditType.Retry,
        comment: `Automatic retry ${m.retryCount ?? 1}`,
        data: m.messageId,
      },
      endpointId: m.to,
      eventTypeId: m.eventTypeId,
    });
  }

  async #onStoreFailure(
    session: SessionHandle,
    message: ReceivedMessage,
    envelope: MessageEnvelope,
    error: unknown,
  ): Promise<void> {
    const { logger, clock } = this.deps;
    const context = { messageId: message.messageId, eventId: envelope.eventId, error: describeError(error) };
    if (!isTransientStoreError(error)) {
      logger.error(context, 'Resolver could not record the message; dead-lettering it');
      await session.deadLetter(message, DeadLetterReasons.failed, describeError(error));
      this.stats.deadLettered += 1;
      return;
    }
    const attempt = envelope.throttleRetryCount ?? 0;
    if (attempt >= MAX_THROTTLE_RETRIES) {
      logger.error({ ...context, attempt }, 'Store still unavailable after the last retry; dead-lettering');
      await session.deadLetter(
        message,
        DeadLetterReasons.maxThrottleRetries,
        `The message store stayed unavailable through ${attempt} rescheduled attempts. Last error: ${describeError(error)}`,
      );
      this.stats.deadLettered += 1;
      return;
    }
    const delayMs = throttleDelayMs(attempt, retryAfterMsOf(error));
    logger.warn({ ...context, attempt, delayMs }, 'Store unavailable; message rescheduled');
    await session.complete(message, {
      publish: [redeliveryOf(message, attempt + 1, new Date(clock.now() + delayMs))],
    });
    this.stats.rescheduled += 1;
  }
}
