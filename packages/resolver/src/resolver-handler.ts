import {
  assertLeaseHeld,
  type Clock,
  countMetric,
  currentLeaseFence,
  decodeEnvelope,
  extractTraceContext,
  type InvalidMessageError,
  isNimBusError,
  isTransportError,
  type Logger,
  type MessageEnvelope,
  MessageType,
  MetricName,
  NimBusErrorCode,
  Outcome,
  type ReceivedMessage,
  type SessionHandle,
  type SessionMessageHandler,
  SpanName,
  TelemetryAttribute,
  TelemetryScope,
  tracedCall,
} from '@nimbus/core';
import {
  determineEndpoint,
  handoffProcessingTimeMs,
  hasStatus,
  historyRecord,
  isHistoryOnly,
  MessageAuditType,
  type ResolverInput,
  resultingStatus,
  retryStateOf,
  stateRow,
} from '@nimbus/message-store';
import { type PlainProjection, plainProjection, statusWritesOf } from './batch-projection.js';
import { GroupCommit } from './group-commit.js';
import { handleHeartbeatTraffic, isHeartbeatTraffic } from './heartbeat/heartbeat-traffic.js';
import { restoreOriginalAddress } from './redelivery.js';
import { auditRefusal } from './refusal-audit.js';
import type { ResolverStore } from './resolver-store.js';
import { describeError } from './store-errors.js';
import { ResolverStopping, StoreRetriesExhausted, withStoreRetries } from './store-retry.js';

export const DeadLetterReasons = {
  invalidMessage: 'Invalid message',
  failed: 'Failed to handle message.',
  maxThrottleRetries: 'Max throttle retries exceeded',
} as const;

export interface ResolverHandlerDeps {
  readonly store: ResolverStore;
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
  /** Store calls retried in place after a transient failure (the session stays held meanwhile). */
  rescheduled: number;
  deadLettered: number;
  /** Receive batches written with one store batch (one transaction on SQL). */
  batches: number;
}

/**
 * Projects each message on the Resolver input into the store, then settles it. Store failures never escape:
 * transient ones are retried in place with back-off while the session is held (so no later message of the
 * session overtakes the failed one), and after the last retry, or for any other failure, the message is
 * dead-lettered with a reason.
 * Settlement failures (lock lost, transport closed) are left to the session processor.
 */
export class ResolverHandler implements SessionMessageHandler {
  readonly stats: ResolverStats = {
    recorded: 0,
    refused: 0,
    heartbeats: 0,
    rescheduled: 0,
    deadLettered: 0,
    batches: 0,
  };
  readonly #stopping = new AbortController();
  readonly #groupCommit: GroupCommit;

  constructor(private readonly deps: ResolverHandlerDeps) {
    this.#groupCommit = new GroupCommit((batch) => deps.store.writeBatch(batch));
  }

  /** Ends every back-off in progress; those messages stay unsettled and are redelivered in order. */
  stop(): void {
    this.#stopping.abort();
  }

  async handleMessage(session: SessionHandle, message: ReceivedMessage): Promise<void> {
    const envelope = await this.#decodeOrDeadLetter(session, message);
    if (envelope !== null) await this.#handleDecoded(session, message, envelope);
  }

  /**
   * A receive batch of one session, in order: runs of plain messages (one history record and one status write
   * each) are written with one `writeBatch` (one transaction on SQL) and settled together; any other message is
   * projected on its own between the runs. Live updates fire once per committed run and endpoint.
   */
  async handleMessages(session: SessionHandle, messages: readonly ReceivedMessage[]): Promise<void> {
    let run: PlainProjection[] = [];
    const flush = async () => {
      if (run.length > 0) await this.#writeRun(session, run);
      run = [];
    };
    for (const message of messages) {
      const envelope = await this.#decodeOrDeadLetter(session, message, flush);
      if (envelope === null) continue;
      const plain = plainProjection(message, envelope);
      if (plain !== null) {
        run.push(plain);
        continue;
      }
      await flush();
      await this.#handleDecoded(session, message, envelope);
    }
    await flush();
  }

  async #decodeOrDeadLetter(
    session: SessionHandle,
    message: ReceivedMessage,
    beforeDeadLetter: () => Promise<void> = async () => {},
  ): Promise<MessageEnvelope | null> {
    try {
      return decodeEnvelope(restoreOriginalAddress(message));
    } catch (error) {
      const problems = isNimBusError(error, NimBusErrorCode.InvalidMessage)
        ? (error as InvalidMessageError).problems.join('; ')
        : describeError(error);
      this.deps.logger.warn(
        { messageId: message.messageId, problems },
        'Resolver dead-letters an unreadable message',
      );
      await beforeDeadLetter();
      await session.deadLetter(message, { reason: DeadLetterReasons.invalidMessage, description: problems });
      this.stats.deadLettered += 1;
      return null;
    }
  }

  async #handleDecoded(session: SessionHandle, message: ReceivedMessage, envelope: MessageEnvelope) {
    const input: ResolverInput = { envelope, headers: message.headers, enqueuedAt: message.enqueuedAt };
    try {
      await this.#retrying(session, envelope, () =>
        this.#traced(message, envelope, () => this.#project(input)),
      );
    } catch (error) {
      if (error instanceof ResolverStopping) return;
      if (isTransportError(error)) throw error;
      await this.#onStoreFailure(session, message, envelope, error);
      return;
    }
    await session.complete(message);
  }

  async #writeRun(session: SessionHandle, run: readonly PlainProjection[]): Promise<void> {
    const { store, logger, clock } = this.deps;
    let written: readonly boolean[];
    try {
      written = await this.#retrying(session, run[0]!.envelope, () =>
        this.#traced(
          run[0]!.message,
          run[0]!.envelope,
          async () => {
            const statuses = await statusWritesOf(run, store, clock);
            const batch = { messages: run.map((p) => p.record), statuses };
            return (await this.#groupCommit.write(batch, currentLeaseFence())).statusesWritten;
          },
          false,
        ),
      );
    } catch (error) {
      if (error instanceof ResolverStopping) return;
      if (isTransportError(error)) throw error;
      if (error instanceof StoreRetriesExhausted) {
        for (const p of run) await this.#onStoreFailure(session, p.message, p.envelope, error);
        return;
      }
      // Not transient: project one by one, so only the message that cannot be recorded is dead-lettered.
      for (const p of run) await this.#handleDecoded(session, p.message, p.envelope);
      return;
    }
    this.stats.batches += 1;
    for (const p of run)
      countMetric(TelemetryScope.Resolver, MetricName.ResolverWrites, {
        [TelemetryAttribute.MessageType]: p.envelope.messageType,
        [TelemetryAttribute.Endpoint]: p.envelope.from ?? p.envelope.to,
        [TelemetryAttribute.Outcome]: Outcome.Completed,
      });
    run.forEach((p, i) => {
      if (written[i]) {
        this.stats.recorded += 1;
      } else {
        this.stats.refused += 1;
        logger.debug(
          { eventId: p.record.eventId, endpointId: p.endpointId, messageId: p.envelope.messageId },
          'Stale write refused: the row already holds a later outcome',
        );
      }
    });
    if (session.settleMany) await session.settleMany(run.map((p) => ({ message: p.message })));
    else for (const p of run) await session.complete(p.message);
  }

  #retrying<T>(session: SessionHandle, envelope: MessageEnvelope, work: () => Promise<T>): Promise<T> {
    // The fence: no store write for a session whose lease this process cannot prove it still holds, checked
    // before every attempt (a retry comes after a back-off the lease may not have outlived) and, for a group
    // commit, again right before the write it waited for.
    const fenced = () => {
      assertLeaseHeld();
      return work();
    };
    return withStoreRetries(fenced, {
      holdSession: () => session.renewLock(),
      firstAttempt: envelope.throttleRetryCount ?? 0,
      clock: this.deps.clock,
      signal: this.#stopping.signal,
      logger: this.deps.logger,
      context: { messageId: envelope.messageId, eventId: envelope.eventId },
      onRetry: () => {
        this.stats.rescheduled += 1;
      },
    });
  }

  /**
   * The write continues the trace of the response it projects (its `traceparent`); counted and timed. A batch
   * run (`countEach: false`) counts each projected message itself, with that message's attributes.
   */
  #traced<T>(
    message: ReceivedMessage,
    m: MessageEnvelope,
    write: () => Promise<T>,
    countEach = true,
  ): Promise<T> {
    return tracedCall(
      {
        scope: TelemetryScope.Resolver,
        span: SpanName.ResolverWrite,
        attributes: {
          [TelemetryAttribute.MessageType]: m.messageType,
          [TelemetryAttribute.Endpoint]: m.from ?? m.to,
        },
        spanAttributes: {
          [TelemetryAttribute.MessageId]: m.messageId,
          [TelemetryAttribute.SessionKey]: m.sessionId,
          ...(m.eventTypeId ? { [TelemetryAttribute.EventType]: m.eventTypeId } : {}),
        },
        duration: MetricName.ResolverWriteDuration,
        clock: this.deps.clock,
        parent: extractTraceContext(message.headers),
        onSettled: (outcome, measured) => {
          if (countEach || outcome !== Outcome.Completed)
            countMetric(TelemetryScope.Resolver, MetricName.ResolverWrites, measured);
        },
      },
      write,
    );
  }

  async #project(input: ResolverInput): Promise<void> {
    const { store, logger } = this.deps;
    const m = input.envelope;
    if (isHeartbeatTraffic(m)) {
      await handleHeartbeatTraffic(m, input.enqueuedAt, {
        metadata: typeof store.setHeartbeat === 'function' ? (store as Required<ResolverStore>) : null,
        serviceHealth:
          typeof store.setServiceHealth === 'function' ? (store as Required<ResolverStore>) : null,
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
      const row = stateRow(record, processingTimeMs ?? record.processingTimeMs ?? null, retryStateOf(m));
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
    const context = { messageId: message.messageId, eventId: envelope.eventId, error: describeError(error) };
    if (error instanceof StoreRetriesExhausted) {
      this.deps.logger.error(context, 'Store still unavailable after the last retry; dead-lettering');
      await session.deadLetter(message, {
        reason: DeadLetterReasons.maxThrottleRetries,
        description: error.message,
      });
    } else {
      this.deps.logger.error(context, 'Resolver could not record the message; dead-lettering it');
      await session.deadLetter(message, {
        reason: DeadLetterReasons.failed,
        description: describeError(error),
      });
    }
    this.stats.deadLettered += 1;
  }
}
