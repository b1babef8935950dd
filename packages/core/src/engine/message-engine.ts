import { systemClock } from '../clock.js';
import type { MessageEnvelope } from '../envelope/envelope.js';
import type { InvalidMessageError } from '../envelope/invalid-message-error.js';
import { MessageType } from '../envelope/message-type.js';
import { decodeEnvelope } from '../envelope/wire.js';
import { NimBusErrorCode } from '../errors/error-codes.js';
import { isNimBusError } from '../errors/nimbus-error.js';
import { retryEverything } from '../failures/failure-disposition.js';
import { consoleLogger } from '../logger.js';
import {
  type LifecycleContext,
  type LifecycleEvent,
  type LifecycleObserver,
  notifyObservers,
} from '../pipeline/lifecycle.js';
import type { PipelineBehaviour } from '../pipeline/pipeline.js';
import type { BatchHandlingOutcome } from '../processing/session-processor-options.js';
import { headerProblems } from '../transport/message-validation.js';
import type { ReceivedMessage, SessionHandle } from '../transport/transport.js';
import { isTransportError, TransportErrorCode } from '../transport/transport-error.js';
import { assertEngineOptions, type MessageEngineOptions } from './engine-options.js';
import {
  awaitsOperatorAfterDeadLetter,
  describe,
  isUnsettleable,
  lifecycleContextOf,
  lifecycleEvents,
  type Notice,
  readableHeaders,
  TransientAbort,
  type Work,
} from './engine-support.js';
import { type EngineTelemetry, engineTelemetry } from './engine-telemetry.js';
import { assertLeaseHeld } from './handler-context.js';
import { deadLetterInvalid } from './invalid-message.js';
import { processLive } from './live-after-replay.js';
import { logSettledOutcome } from './outcome-log.js';
import { type HandlerOutcomeRecorder, SettlementOutcomes } from './outcome-recorder.js';
import { runStep } from './pipeline-step.js';
import { EffectsBuilder, type Verdict } from './plan.js';
import { type ReplayContext, type ReplayRun, replayParked } from './replay-line.js';
import { ResponseBuilder } from './responses.js';
import { type EngineSessionState, modeOf, readSessionState, withAwaiting } from './session-state.js';
import { SettlementBatch } from './settlement-batch.js';
import { reportRefusedSettlement, settleWhatRan } from './settlement-refusal.js';
import { committedReads, ImmediateSettlements, type SessionReads, type Settlements } from './settlements.js';
import type { EngineDeps, Step } from './step.js';

export { GENERIC_DEAD_LETTER_REASON, SETTLEMENT_REFUSED_REASON } from './engine-support.js';
export const SDK_VERSION = '0.1.0';
export type { EngineHandlingOptions, MessageEngineOptions } from './engine-options.js';

/**
 * The workflow engine for one endpoint (the session processor's message handler): it decides, for every message
 * of a session, the Resolver responses, session state, parking, replay and retries, applied in one settlement.
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
    assertEngineOptions(options);
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

  get #replayContext(): ReplayContext {
    return {
      deps: this.#deps,
      telemetry: this.#telemetry,
      maxReplay: this.#maxReplay,
      process: (work, state, effects, notices, outcomes) =>
        this.#process(work, state, effects, notices, outcomes),
    };
  }

  async onSessionAccepted(session: SessionHandle): Promise<void> {
    this.#states.delete(session);
  }

  /**
   * Processes and settles one received message, in a consumer span parented to the message's trace. Never
   * throws for a bad message; settlement failures propagate.
   */
  handleMessage(session: SessionHandle, received: ReceivedMessage): Promise<void> {
    return this.#handleMessage(session, new ImmediateSettlements(session, this.#deps), received);
  }

  async #handleMessage(
    session: SessionHandle,
    settlements: Settlements,
    received: ReceivedMessage,
  ): Promise<void> {
    try {
      // Telemetry reads headers; unreadable ones (null, non-strings) are dead-lettered by #handle, not thrown here.
      const traced =
        headerProblems(received.headers) === null
          ? received
          : { ...received, headers: readableHeaders(received.headers) };
      await this.#telemetry.process(traced, () => this.#handle(session, settlements, received));
    } catch (error) {
      if (isTransportError(error)) throw error;
      // An unexpected failure (not a decision): count the delivery, so that a message that always fails this
      // way reaches the transport's max delivery count and is dead-lettered instead of looping.
      this.#states.delete(session);
      await settlements
        .abandon(received)
        .catch((abandonError: unknown) =>
          this.#deps.logger.warn(
            { messageId: received.messageId, error: String(abandonError) },
            'Could not abandon a message whose handling failed unexpectedly.',
          ),
        );
      throw error;
    }
  }

  /**
   * A received batch of one session in order, decided as by `handleMessage`, settled together by `settleMany`
   * (committed early when the next step must see it: replay, abandon; a failed commit applies nothing). Without
   * `settleMany` it is `handleMessage` per message. After an abandon (transient, no next(), unexpected error) the
   * rest is left unrun (`leftUnrun`, handed back by the release): it would overtake the abandoned message.
   */
  async handleMessages(
    session: SessionHandle,
    messages: readonly ReceivedMessage[],
  ): Promise<BatchHandlingOutcome | undefined> {
    if (messages.length <= 1 || typeof session.settleMany !== 'function') {
      for (const message of messages) await this.handleMessage(session, message);
      return undefined;
    }
    const batch = new SettlementBatch(
      session,
      () => this.#states.delete(session),
      (count, error) => reportRefusedSettlement(this.#deps.logger, this.endpointId, session, count, error),
    );
    let error: unknown;
    let refusedBatch = false;
    let leftUnrun = 0;
    try {
      for (const [index, message] of messages.entries()) {
        const abandoned = batch.abandoned;
        try {
          await this.#handleMessage(session, batch, message);
        } catch (thrown) {
          if (isTransportError(thrown, TransportErrorCode.SessionLockLost)) {
            await settleWhatRan(batch, session.sessionId, this.#deps.logger);
            throw thrown;
          }
          error = thrown;
        }
        leftUnrun = messages.length - index - 1;
        if (batch.abandoned > abandoned || error !== undefined) break;
      }
      await batch.commit();
    } catch (error) {
      this.#states.delete(session);
      if (!isUnsettleable(error)) throw error;
      // The transport refused one settlement of the batch (too large, invalid) and applied none: settle the
      // messages one by one, so that only the refused one is dead-lettered.
      refusedBatch = true;
    } finally {
      // Cached state is true only of what was committed.
      if (batch.pending > 0) this.#states.delete(session);
    }
    if (refusedBatch) {
      for (const message of messages) await this.handleMessage(session, message);
      return undefined;
    }
    // Thrown, the error would leave the unrun messages held while the processor receives past them.
    if (error !== undefined) return { leftUnrun, error };
    return leftUnrun > 0 ? { leftUnrun } : undefined;
  }

  async #handle(
    session: SessionHandle,
    settlements: Settlements,
    received: ReceivedMessage,
  ): Promise<string> {
    let message: MessageEnvelope;
    try {
      message = decodeEnvelope(received);
    } catch (error) {
      if (!isNimBusError(error, NimBusErrorCode.InvalidMessage)) throw error;
      await deadLetterInvalid(
        this.#deps,
        (context, event) => this.#notify(context, event),
        settlements,
        received,
        error as InvalidMessageError,
      );
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
      return await this.#settle(session, settlements, received, work, outcomes);
    } finally {
      outcomes.finish();
    }
  }

  /** Returns the verdict kind, for telemetry. */
  async #settle(
    session: SessionHandle,
    settlements: Settlements,
    received: ReceivedMessage,
    work: Work,
    outcomes: SettlementOutcomes,
  ): Promise<string> {
    const reads = committedReads(session, settlements);
    const before = await this.#loadState(session, reads);
    const state: EngineSessionState = { ...before };
    const effects = new EffectsBuilder();
    const notices: Notice[] = [];
    let verdict: Verdict;
    let replayed = 0;
    // A continuation the engine scheduled after a replay stalled carries how often it stalled so far.
    const run: ReplayRun = {
      attempt:
        work.message.messageType === MessageType.ContinuationRequest ? (work.message.retryCount ?? 0) : 0,
      stalled: false,
    };
    try {
      if (modeOf(state) === 'replaying')
        replayed += await replayParked(
          this.#replayContext,
          reads,
          state,
          effects,
          notices,
          replayed,
          outcomes,
          run,
        );
      const live = { work, state, effects, notices, outcomes, run, replayed };
      verdict = await processLive(this.#replayContext, reads, live);
      if (modeOf(state) === 'replaying')
        await replayParked(this.#replayContext, reads, state, effects, notices, replayed, outcomes, run);
    } catch (error) {
      if (!(error instanceof TransientAbort)) throw error;
      this.#states.delete(session);
      await this.#telemetry.settle('abandon', () => settlements.abandon(received));
      this.#deps.logger.warn(
        { messageId: received.messageId, sessionId: received.sessionId, error: String(error.error) },
        'Transient failure; the message will be delivered again.',
      );
      await this.#notify(lifecycleContextOf(work, this.endpointId, this.#deps.clock.now()), {
        kind: 'failed',
        error: error.error,
      });
      return 'transient';
    }
    if (verdict.kind === 'skipped') {
      this.#states.delete(session);
      this.#deps.logger.warn(
        { messageId: received.messageId },
        'A pipeline behaviour did not call next(); the message is abandoned and will be delivered again.',
      );
      await this.#telemetry.settle('abandon', () => settlements.abandon(received));
      return verdict.kind;
    }
    const settleEffects = effects.toSettleEffects(this.endpointId, before, state);
    try {
      if (verdict.kind === 'deadLetter') {
        const { reason } = verdict;
        const description = describe(verdict);
        await this.#telemetry.settle('deadLetter', () =>
          settlements.deadLetter(received, { reason, description, effects: settleEffects }),
        );
      } else {
        await this.#telemetry.settle('complete', () => settlements.complete(received, settleEffects));
      }
    } catch (error) {
      this.#states.delete(session);
      await settlements.refused(received, error);
      return 'deadLetter';
    }
    this.#states.set(session, state);
    await settlements.afterCommit(async () => {
      this.#telemetry.settled(settleEffects);
      for (const notice of notices) {
        logSettledOutcome(this.#deps.logger, notice);
        for (const event of notice.events) await this.#notify(notice.context, event);
      }
    });
    return verdict.kind;
  }

  async #loadState(session: SessionHandle, reads: SessionReads): Promise<EngineSessionState> {
    const cached = this.#states.get(session);
    if (cached) return { ...cached };
    return readSessionState(await reads.getState());
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
    // The fence: no handler starts unless this process still provably holds the session's lease.
    assertLeaseHeld();
    const context = lifecycleContextOf(work, this.endpointId, this.#deps.clock.now());
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
    };
    const verdict = await runStep(step, this.#behaviours);
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

  #notify(context: LifecycleContext, event: LifecycleEvent): Promise<void> {
    if (this.#observers.length === 0) return Promise.resolve();
    return notifyObservers(this.#observers, context, event, this.#deps.logger);
  }
}
