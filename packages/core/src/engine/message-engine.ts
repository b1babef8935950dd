import type { Link } from '@opentelemetry/api';
import { type Clock, systemClock } from '../clock.js';
import { createEnvelope, type MessageEnvelope } from '../envelope/envelope.js';
import { Header } from '../envelope/headers.js';
import { InvalidMessageError } from '../envelope/invalid-message-error.js';
import { EMPTY_CONTENT } from '../envelope/message-content.js';
import { MessageType } from '../envelope/message-type.js';
import { decodeContent, decodeEnvelope, encodeEnvelope } from '../envelope/wire.js';
import { type FailureClassifier, retryEverything } from '../failures/failure-disposition.js';
import { uuidv7 } from '../ids.js';
import { consoleLogger, type Logger } from '../logger.js';
import {
  type LifecycleContext,
  type LifecycleEvent,
  type LifecycleObserver,
  notifyObservers,
} from '../pipeline/lifecycle.js';
import { type PipelineBehaviour, runPipeline } from '../pipeline/pipeline.js';
import { Addresses } from '../platform/reserved.js';
import type { RetryPolicyProvider } from '../retry/retry-policy-provider.js';
import { activeTraceFields } from '../telemetry/trace-context.js';
import type { ReceivedMessage, SessionHandle } from '../transport/transport.js';
import { isTransportError, TransportErrorCode } from '../transport/transport-error.js';
import type { TransportMessage } from '../transport/transport-message.js';
import { type EngineTelemetry, engineTelemetry } from './engine-telemetry.js';
import {
  fullErrorText,
  HandlerFailedError,
  MessageRejectedError,
  PermanentFailureError,
  UnauthorizedRequestError,
  UnsupportedMessageTypeError,
} from './errors.js';
import type { EventContextHandler } from './handler-context.js';
import type { EngineInbox } from './inbox-step.js';
import { isTransient, permanentReason } from './invoke-handler.js';
import { type HandlerOutcomeRecorder, SettlementOutcomes } from './outcome-recorder.js';
import { EffectsBuilder, type Verdict } from './plan.js';
import { dispatch } from './procedures.js';
import { ResponseBuilder } from './responses.js';
import { type EngineSessionState, modeOf, readSessionState, withAwaiting } from './session-state.js';
import { SettlementBatch } from './settlement-batch.js';
import type { EngineDeps, Step } from './step.js';

export const GENERIC_DEAD_LETTER_REASON = 'Failed to handle message.';
export const SDK_VERSION = '0.1.0';

export interface MessageEngineOptions {
  /** The endpoint whose input this engine consumes; responses are sent on its topic. */
  readonly endpointId: string;
  readonly handler: EventContextHandler;
  readonly clock?: Clock;
  readonly logger?: Logger;
  /** `null`/absent: failures are never retried automatically; the session stays blocked. */
  readonly retryPolicies?: RetryPolicyProvider | null;
  readonly failureClassifier?: FailureClassifier;
  readonly behaviours?: readonly PipelineBehaviour[];
  readonly observers?: readonly LifecycleObserver[];
  /** Source of randomness for retry jitter, in [0, 1). */
  readonly random?: () => number;
  /** Parked messages replayed per settlement before handing over to a continuation (default 500). */
  readonly maxReplayPerSettlement?: number;
  readonly sdkVersion?: string;
  /**
   * Consumer deduplication (`createInbox` of `@nimbus/reliability`): a redelivery of a message this endpoint
   * already handled is answered with a `SkipResponse` (DuplicateDetected) instead of running the handler again.
   */
  readonly inbox?: EngineInbox | null;
  /** Hears every business handler outcome (an `EndpointCircuitBreaker`). */
  readonly circuitBreaker?: HandlerOutcomeRecorder | null;
  /** `messaging.system` on spans and metrics: the transport's name. Default `nimbus`. */
  readonly messagingSystem?: string;
}

/** Engine options a host passes through unchanged (retries, failure classes, behaviours, observers). */
export type EngineHandlingOptions = Pick<
  MessageEngineOptions,
  'retryPolicies' | 'failureClassifier' | 'behaviours' | 'observers'
>;

/** Aborts a whole settlement: nothing is applied and the triggering message is delivered again. */
class TransientAbort extends Error {
  constructor(readonly error: unknown) {
    super('transient failure during processing', { cause: error });
  }
}

interface Work {
  readonly message: MessageEnvelope;
  readonly transportMessage: TransportMessage;
  readonly isReplay: boolean;
  readonly deliveryCount: number;
  readonly enqueuedAt: Date | null;
}

type Notice = { context: LifecycleContext; events: LifecycleEvent[] };

/**
 * The workflow engine for one endpoint. It decides, for every message of a session, the responses to the
 * Resolver, the session state, parking and replay, and retries, and applies all of it with one settlement
 * call. It implements the session processor's message-handler contract.
 */
export class MessageEngine {
  readonly endpointId: string;
  readonly #deps: EngineDeps;
  readonly #behaviours: readonly PipelineBehaviour[];
  readonly #observers: readonly LifecycleObserver[];
  readonly #maxReplay: number;
  readonly #breaker: HandlerOutcomeRecorder | null;
  readonly #telemetry: EngineTelemetry;
  readonly #states = new WeakMap<SessionHandle, EngineSessionState>();

  constructor(options: MessageEngineOptions) {
    if (!options?.endpointId) throw new TypeError('MessageEngine needs an endpointId.');
    if (!options.handler || typeof options.handler.handle !== 'function') {
      throw new TypeError('MessageEngine needs a handler with a handle(context) method.');
    }
    const clock = options.clock ?? systemClock;
    this.endpointId = options.endpointId;
    this.#deps = {
      endpointId: options.endpointId,
      handler: options.handler,
      clock,
      logger: options.logger ?? consoleLogger,
      responses: new ResponseBuilder(options.endpointId, clock, options.sdkVersion ?? SDK_VERSION),
      retryPolicies: options.retryPolicies ?? null,
      classifier: options.failureClassifier ?? retryEverything,
      random: options.random ?? Math.random,
      inbox: options.inbox ?? null,
    };
    this.#breaker = options.circuitBreaker ?? null;
    this.#telemetry = engineTelemetry(options.endpointId, options.messagingSystem ?? 'nimbus', clock);
    this.#behaviours = [...(options.behaviours ?? [])];
    this.#observers = [...(options.observers ?? [])];
    this.#maxReplay = Math.max(1, options.maxReplayPerSettlement ?? 500);
  }

  async onSessionAccepted(session: SessionHandle): Promise<void> {
    this.#states.delete(session);
  }

  /**
   * Processes and settles one received message, in a consumer span parented to the message's trace. Never
   * throws for a bad message; settlement failures propagate.
   */
  async handleMessage(session: SessionHandle, received: ReceivedMessage): Promise<void> {
    await this.#telemetry.process(received, () => this.#handle(session, received));
  }

  /**
   * Processes a received batch of one session in order, with the same decisions as `handleMessage` per
   * message, and commits the settlements together through the transport's `settleMany` (one transaction).
   * Settlements are committed early whenever the next step must see them (replay reading parked messages, an
   * abandon). If the commit fails nothing of the batch is applied and the messages are delivered again
   * (at-least-once). Without `settleMany` (or for one message) it is `handleMessage` per message. A message
   * whose handling throws does not stop the others; the first such error is thrown after the batch is settled.
   */
  async handleMessages(session: SessionHandle, messages: readonly ReceivedMessage[]): Promise<void> {
    if (messages.length <= 1 || typeof session.settleMany !== 'function') {
      for (const message of messages) await this.handleMessage(session, message);
      return;
    }
    const batch = new SettlementBatch(session, () => {
      this.#states.delete(batch);
      this.#states.delete(session);
    });
    const cached = this.#states.get(session);
    if (cached) this.#states.set(batch, cached);
    const errors: unknown[] = [];
    try {
      for (const message of messages) {
        try {
          await this.handleMessage(batch, message);
        } catch (error) {
          if (isTransportError(error, TransportErrorCode.SessionLockLost)) throw error;
          errors.push(error);
        }
      }
      await batch.flush();
    } catch (error) {
      this.#states.delete(session);
      throw error;
    } finally {
      const state = this.#states.get(batch);
      this.#states.delete(batch);
      if (state && batch.pending === 0) this.#states.set(session, state);
      else this.#states.delete(session);
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1)
      throw new AggregateError(errors, `${errors.length} messages of a batch failed to be handled`);
  }

  async #handle(session: SessionHandle, received: ReceivedMessage): Promise<string> {
    let message: MessageEnvelope;
    try {
      message = decodeEnvelope(received);
    } catch (error) {
      if (!(error instanceof InvalidMessageError)) throw error;
      await this.#deadLetterInvalid(session, received, error);
      return 'deadLetter';
    }
    const now = this.#deps.clock.now();
    message = { ...message, queueTimeMs: Math.max(0, now - received.enqueuedAt.getTime()) };
    const work: Work = {
      message,
      // Parked copies keep only the transport shape, not this delivery's lock and sequence.
      transportMessage: {
        messageId: received.messageId,
        sessionId: received.sessionId,
        correlationId: received.correlationId,
        headers: received.headers,
        body: received.body,
      },
      isReplay: false,
      deliveryCount: received.deliveryCount,
      enqueuedAt: received.enqueuedAt,
    };
    this.#telemetry.queued(message);
    const outcomes = new SettlementOutcomes(this.#breaker);
    try {
      return await this.#settle(session, received, work, outcomes);
    } finally {
      outcomes.finish();
    }
  }

  /** Returns the verdict kind, for telemetry. */
  async #settle(
    session: SessionHandle,
    received: ReceivedMessage,
    work: Work,
    outcomes: SettlementOutcomes,
  ): Promise<string> {
    const before = await this.#loadState(session);
    const state: EngineSessionState = { ...before };
    const effects = new EffectsBuilder();
    const notices: Notice[] = [];
    let verdict: Verdict;
    let replayed = 0;
    try {
      if (modeOf(state) === 'replaying')
        replayed += await this.#replay(session, state, effects, notices, replayed, outcomes);
      verdict = await this.#process(work, state, effects, notices, outcomes);
      if (verdict.kind === 'transient') throw new TransientAbort(verdict.error);
      if (modeOf(state) === 'replaying')
        await this.#replay(session, state, effects, notices, replayed, outcomes);
    } catch (error) {
      if (!(error instanceof TransientAbort)) throw error;
      this.#states.delete(session);
      await this.#telemetry.settle('abandon', () => session.abandon(received));
      this.#deps.logger.warn(
        { messageId: received.messageId, sessionId: received.sessionId, error: String(error.error) },
        'Transient failure; the message will be delivered again.',
      );
      await this.#notify(this.#lifecycleContext(work), { kind: 'failed', error: error.error });
      return 'transient';
    }
    if (verdict.kind === 'skipped') {
      this.#states.delete(session);
      this.#deps.logger.warn(
        { messageId: received.messageId },
        'A pipeline behaviour did not call next(); the message is abandoned and will be delivered again.',
      );
      await this.#telemetry.settle('abandon', () => session.abandon(received));
      return verdict.kind;
    }
    const settleEffects = effects.toSettleEffects(this.endpointId, before, state);
    try {
      if (verdict.kind === 'deadLetter') {
        const { reason } = verdict;
        const description = describe(verdict);
        await this.#telemetry.settle('deadLetter', () =>
          session.deadLetter(received, reason, description, settleEffects),
        );
      } else {
        await this.#telemetry.settle('complete', () => session.complete(received, settleEffects));
      }
    } catch (error) {
      this.#states.delete(session);
      throw error;
    }
    this.#states.set(session, state);
    await afterCommit(session, async () => {
      this.#telemetry.settled(settleEffects);
      for (const notice of notices) {
        for (const event of notice.events) await this.#notify(notice.context, event);
      }
    });
    return verdict.kind;
  }

  async #loadState(session: SessionHandle): Promise<EngineSessionState> {
    const cached = this.#states.get(session);
    if (cached) return { ...cached };
    return readSessionState(await session.getState());
  }

  /**
   * Runs one message through the pipeline and its procedure. Effects and state changes are kept only when
   * the message was decided; a dead-letter keeps nothing but the notification.
   */
  async #process(
    work: Work,
    state: EngineSessionState,
    effects: EffectsBuilder,
    notices: Notice[],
    outcomes: SettlementOutcomes,
  ): Promise<Verdict> {
    const context = this.#lifecycleContext(work);
    await this.#notify(context, { kind: 'received' });
    const step: Step = {
      deps: this.#deps,
      message: work.message,
      transportMessage: work.transportMessage,
      isReplay: work.isReplay,
      deliveryCount: work.deliveryCount,
      startedAt: this.#deps.clock.now(),
      state: { ...state },
      effects: new EffectsBuilder(),
      outcomes,
      inboxGuarded: false,
      verdict: null,
    };
    let verdict: Verdict;
    try {
      await runPipeline(
        this.#behaviours,
        {
          message: work.message,
          endpointId: this.endpointId,
          isReplay: work.isReplay,
          deliveryCount: work.deliveryCount,
          items: new Map(),
        },
        () => dispatch(step),
      );
      verdict = step.verdict ?? { kind: 'skipped' };
    } catch (error) {
      verdict =
        error instanceof HandlerFailedError && step.verdict !== null
          ? step.verdict
          : this.#failureVerdict(error);
    }
    if (verdict.kind === 'deadLetter') {
      effects.responses.push(
        this.#deps.responses.deadLetterNotice(work.message, verdict.reason, verdict.error, step.startedAt),
      );
      // A dead-lettered event does not block its session; an operator may still resubmit or skip it.
      if (awaitsOperatorAfterDeadLetter(work.message, verdict.error)) {
        state.awaitingOperator = withAwaiting(state, work.message.eventId!);
      }
    } else if (verdict.kind !== 'transient' && verdict.kind !== 'skipped') {
      Object.assign(state, step.state);
      effects.append(step.effects);
    }
    notices.push({ context, events: lifecycleEvents(verdict) });
    return verdict;
  }

  #failureVerdict(error: unknown): Verdict {
    if (isTransient(error)) return { kind: 'transient', error };
    if (error instanceof PermanentFailureError) {
      return { kind: 'deadLetter', reason: permanentReason(error), error: error.cause ?? error };
    }
    if (error instanceof MessageRejectedError) return { kind: 'deadLetter', reason: error.reason, error };
    if (error instanceof UnauthorizedRequestError || error instanceof UnsupportedMessageTypeError) {
      return { kind: 'deadLetter', reason: error.message, error };
    }
    return { kind: 'deadLetter', reason: GENERIC_DEAD_LETTER_REASON, error };
  }

  /**
   * Replays parked messages in sequence order through the same path as new ones, inside the session. Stops
   * when the line is empty (back to open, count reset), when a replayed message blocks the session again
   * (the rest stay parked in place), or after the per-settlement budget (a continuation is sent).
   */
  async #replay(
    session: SessionHandle,
    state: EngineSessionState,
    effects: EffectsBuilder,
    notices: Notice[],
    alreadyReplayed: number,
    outcomes: SettlementOutcomes,
  ): Promise<number> {
    return this.#telemetry.replay(session.sessionId, (link) =>
      this.#replayLine(session, state, effects, notices, alreadyReplayed, outcomes, link),
    );
  }

  async #replayLine(
    session: SessionHandle,
    state: EngineSessionState,
    effects: EffectsBuilder,
    notices: Notice[],
    alreadyReplayed: number,
    outcomes: SettlementOutcomes,
    link: Link,
  ): Promise<number> {
    let replayed = 0;
    let from = 0;
    const unparked = new Set(effects.unpark);
    while (modeOf(state) === 'replaying') {
      if (alreadyReplayed + replayed >= this.#maxReplay) {
        effects.responses.push(this.#continuation(session.sessionId));
        return replayed;
      }
      const page = await session.readParked(from, Math.min(100, this.#maxReplay));
      if (page.length === 0) {
        state.replaying = false;
        state.deferredCount = 0;
        return replayed;
      }
      for (const parked of page) {
        from = parked.sequence + 1;
        // Unparked earlier in this same settlement (not applied yet): already handled.
        if (unparked.has(parked.sequence)) continue;
        replayed += 1;
        unparked.add(parked.sequence);
        state.deferredCount = Math.max(0, state.deferredCount - 1);
        let message: MessageEnvelope;
        try {
          message = decodeEnvelope(parked.message);
        } catch (error) {
          const reason =
            error instanceof InvalidMessageError
              ? error.message
              : `Unreadable parked message: ${String(error)}`;
          this.#deps.logger.warn(
            { sequence: parked.sequence, sessionId: session.sessionId, reason },
            'Dead-lettered an unreadable parked message.',
          );
          effects.deadLetterParked.push({ sequence: parked.sequence, reason, description: reason });
          const notice = this.#invalidMessageNotice(parked.message, reason);
          if (notice) effects.responses.push(notice);
          continue;
        }
        const work: Work = {
          message,
          transportMessage: parked.message,
          isReplay: true,
          deliveryCount: 1,
          enqueuedAt: parked.parkedAt,
        };
        // Each replayed message continues its own trace (the one it was published in), linked to the replay.
        const verdict = await this.#telemetry.process(
          parked.message,
          () => this.#process(work, state, effects, notices, outcomes),
          link,
        );
        if (verdict.kind === 'transient') throw new TransientAbort(verdict.error);
        // An undecided replayed message must not be unparked: give the whole settlement up instead.
        if (verdict.kind === 'skipped')
          throw new TransientAbort(new Error('a behaviour skipped a replayed message'));
        if (verdict.kind === 'deadLetter') {
          // Into the transport's dead-letter list (requeueable), not just gone from the line.
          effects.deadLetterParked.push({
            sequence: parked.sequence,
            reason: verdict.reason,
            description: describe(verdict),
          });
        } else {
          effects.unpark.push(parked.sequence);
        }
        if (modeOf(state) !== 'replaying') return replayed;
        if (alreadyReplayed + replayed >= this.#maxReplay) break;
      }
    }
    return replayed;
  }

  #continuation(sessionId: string): MessageEnvelope {
    return createEnvelope({
      messageId: uuidv7(this.#deps.clock.now()),
      to: Addresses.continuation,
      from: this.endpointId,
      sessionId,
      messageType: MessageType.ContinuationRequest,
      eventId: uuidv7(this.#deps.clock.now()),
      ...activeTraceFields(),
    });
  }

  /** Dead-letters an unreadable message, telling the Resolver when enough identity is readable. */
  async #deadLetterInvalid(
    session: SessionHandle,
    received: ReceivedMessage,
    error: InvalidMessageError,
  ): Promise<void> {
    const reason = error.message;
    const notice = this.#invalidMessageNotice(received, reason);
    const notices = notice ? [notice] : [];
    const publish =
      notices.length > 0 ? [{ source: this.endpointId, messages: notices.map(encodeEnvelope) }] : [];
    await session.deadLetter(received, reason, reason, publish.length > 0 ? { publish } : {});
    await afterCommit(session, async () => {
      this.#deps.logger.warn(
        { messageId: received.messageId, sessionId: received.sessionId, reason },
        'Dead-lettered an invalid message.',
      );
      const context = rawLifecycleContext(received, this.endpointId, this.#deps.clock.now());
      await this.#notify(context, { kind: 'received' });
      await this.#notify(context, { kind: 'failed', error });
      await this.#notify(context, { kind: 'deadLettered', reason, error });
    });
  }

  /** The Resolver's dead-letter notice for an unreadable message, when enough of its identity is readable. */
  #invalidMessageNotice(message: TransportMessage, reason: string): MessageEnvelope | null {
    const h = message.headers;
    if (!h[Header.From] || !h[Header.EventId]) return null;
    const content = decodeContent(message.body);
    const inbound = createEnvelope({
      messageId: message.messageId || uuidv7(),
      to: h[Header.To] || this.endpointId,
      from: h[Header.From],
      sessionId: message.sessionId || 'unknown',
      correlationId: message.correlationId,
      messageType: MessageType.EventRequest,
      eventId: h[Header.EventId],
      eventTypeId: h[Header.EventTypeId] || null,
      content: typeof content === 'string' ? EMPTY_CONTENT : content,
    });
    return this.#deps.responses.deadLetterNotice(inbound, reason, null, null);
  }

  #lifecycleContext(work: Work): LifecycleContext {
    const m = work.message;
    return {
      messageId: m.messageId,
      eventId: m.eventId,
      eventTypeId: m.eventTypeId,
      correlationId: m.correlationId,
      sessionId: m.sessionId,
      endpointId: this.endpointId,
      messageType: m.messageType,
      enqueuedAt: work.enqueuedAt,
      isReplay: work.isReplay,
      timestamp: new Date(this.#deps.clock.now()),
    };
  }

  #notify(context: LifecycleContext, event: LifecycleEvent): Promise<void> {
    if (this.#observers.length === 0) return Promise.resolve();
    return notifyObservers(this.#observers, context, event, this.#deps.logger);
  }
}

const EVENT_HANDLING_TYPES: ReadonlySet<string> = new Set([
  MessageType.EventRequest,
  MessageType.UnsupportedResponse,
  MessageType.RetryRequest,
  MessageType.ResubmissionRequest,
]);

/** An event whose handling was dead-lettered (not a refused or unauthorised control message). */
function awaitsOperatorAfterDeadLetter(message: MessageEnvelope, error: unknown): boolean {
  if (!message.eventId || !EVENT_HANDLING_TYPES.has(message.messageType)) return false;
  return !(error instanceof UnauthorizedRequestError || error instanceof UnsupportedMessageTypeError);
}

/** Observers and metrics hear of a settlement only once it is committed (later, within a batch). */
function afterCommit(session: SessionHandle, work: () => Promise<void>): Promise<void> {
  return session instanceof SettlementBatch ? session.afterCommit(work) : work();
}

function describe(verdict: Verdict & { kind: 'deadLetter' }): string {
  return verdict.error === undefined || verdict.error === null
    ? verdict.reason
    : fullErrorText(verdict.error);
}

/** Observers see the real outcome: a failed handler is reported as failed, never as completed. */
function lifecycleEvents(verdict: Verdict): LifecycleEvent[] {
  switch (verdict.kind) {
    case 'completed':
      return verdict.duplicate
        ? [{ kind: 'duplicateDetected' }, { kind: 'completed' }]
        : [{ kind: 'completed' }];
    case 'parked':
      return [{ kind: 'sessionBlocked', blockedByEventId: verdict.blockedByEventId }];
    case 'failed':
      return [{ kind: 'failed', error: verdict.error }];
    case 'deadLetter':
      return [
        { kind: 'failed', error: verdict.error },
        { kind: 'deadLettered', reason: verdict.reason, error: verdict.error },
      ];
    case 'transient':
      return [{ kind: 'failed', error: verdict.error }];
    case 'refused':
    case 'skipped':
      return [];
  }
}

function rawLifecycleContext(received: ReceivedMessage, endpointId: string, now: number): LifecycleContext {
  const h = received.headers;
  return {
    messageId: received.messageId || null,
    eventId: h[Header.EventId] ?? null,
    eventTypeId: h[Header.EventTypeId] ?? null,
    correlationId: received.correlationId,
    sessionId: received.sessionId || null,
    endpointId,
    messageType: h[Header.MessageType] ?? null,
    enqueuedAt: received.enqueuedAt,
    isReplay: false,
    timestamp: new Date(now),
  };
}
