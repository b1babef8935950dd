import type {
  ServiceBusClient,
  ServiceBusReceivedMessage,
  ServiceBusSessionReceiver,
} from '@azure/service-bus';
import {
  type DeadLetterOptions,
  NimBusError,
  NimBusErrorCode,
  type ParkedMessage,
  type ReceivedMessage,
  type ReceiveOptions,
  type SessionHandle,
  type SessionState,
  type SettleEffects,
  TransportError,
  TransportErrorCode,
} from '@nimbus/core';
import {
  assertPublishBatchSize,
  assertSessionState,
  assertSettleEffects,
  deadLetterOutcome,
} from '@nimbus/core/transport-spi';
import { guarded } from './errors.js';
import { toReceived } from './message-mapping.js';
import { DEAD_LETTERED_AT_PROPERTY } from './names.js';
import { MAX_BATCH_BYTES } from './options.js';
import { ParkedLine } from './parked-line.js';
import type { Publisher } from './publisher.js';
import { unlessClosing } from './unless-closing.js';

/**
 * What a handle needs of a session lease: a session receiver of `@azure/service-bus`, or the settlement a host
 * holding the lease offers (the Azure Functions host's SDK binding).
 */
export type HeldSession = Pick<
  ServiceBusSessionReceiver,
  | 'sessionId'
  | 'sessionLockedUntilUtc'
  | 'isClosed'
  | 'receiveMessages'
  | 'getSessionState'
  | 'setSessionState'
  | 'completeMessage'
  | 'abandonMessage'
  | 'deadLetterMessage'
  | 'renewSessionLock'
  | 'close'
>;

/** What a handle knows of its transport's life: a signal aborted when it closes, and the guard throwing `Closed`. */
export interface TransportLife {
  readonly closing: AbortSignal;
  assertUsable(operation: string): void;
}

/** Where the engine's session state lives: the input session's own state, or the parked line's session. */
export type StatePlace = 'input' | 'parked';

/** How long a receive that already has messages waits for more that are already on their way. */
const COLLECT_MS = 20;

/**
 * A leased session of one input. Service Bus cannot settle, publish and set state in one step, so a settlement
 * runs its effects in an order where a crash between any two is repaired by the redelivery that follows:
 * publish (idempotent message ids), park (idempotent per sequence), dead-letter and unpark parked messages
 * (a repeat finds them gone), session state, and only then the settlement of the message itself.
 */
export class ServiceBusSessionHandle implements SessionHandle {
  readonly #held = new Map<string, ServiceBusReceivedMessage>();
  readonly #buffered: ServiceBusReceivedMessage[] = [];
  readonly #parked: ParkedLine;
  #lockedUntil: Date;
  #released = false;

  constructor(
    readonly input: string,
    readonly receiver: HeldSession,
    client: ServiceBusClient,
    readonly publisher: Publisher,
    lockDurationMs: number,
    readonly receiveSliceMs: number,
    readonly life: TransportLife,
    first: ServiceBusReceivedMessage[] = [],
    readonly statePlace: StatePlace = 'input',
  ) {
    this.#lockedUntil = receiver.sessionLockedUntilUtc ?? new Date(Date.now() + lockDurationMs);
    this.#buffered.push(...first);
    this.#parked = new ParkedLine(client, publisher, input, receiver.sessionId, lockDurationMs);
  }

  get sessionId(): string {
    return this.receiver.sessionId;
  }

  get lockedUntil(): Date {
    return this.#lockedUntil;
  }

  async receive({ max, waitMs, signal }: ReceiveOptions): Promise<ReceivedMessage[]> {
    this.#assertHeld('receive');
    if (signal?.aborted) return [];
    if (!(max >= 1))
      throw new NimBusError(NimBusErrorCode.InvalidArgument, `receive: max must be ≥ 1, got ${max}`);
    const taken = this.#buffered.splice(0, max);
    if (taken.length < max) {
      const { closing } = this.life;
      const abortSignal = signal ? AbortSignal.any([signal, closing]) : closing;
      const more = await unlessClosing(
        guarded(`receive from '${this.input}'`, () =>
          this.receiver.receiveMessages(max - taken.length, {
            // With some in hand, only collect what is already there; otherwise wait at most one slice.
            maxWaitTimeInMs:
              taken.length > 0 ? COLLECT_MS : Math.max(1, Math.min(waitMs, this.receiveSliceMs)),
            abortSignal,
          }),
        ).catch((error: unknown) => {
          // The caller's signal ended the wait (the SDK rejects it with an AbortError): nothing more came.
          if (signal?.aborted && !closing.aborted) return [];
          throw error;
        }),
        closing,
        () => this.life.assertUsable('receive') as never,
      );
      taken.push(...more);
    }
    if (this.receiver.isClosed) {
      // The SDK closes a receiver whose drain went unanswered, and with it the lease: the broker gives these
      // messages to the next holder, so handing them out here would handle them twice.
      throw new TransportError(
        TransportErrorCode.SessionLockLost,
        `receive from '${this.input}': the receiver of session '${this.sessionId}' was closed under this lease (SessionLockLost); ${taken.length} message(s) it returned go back to the broker`,
      );
    }
    return taken.map((message) => {
      const received = toReceived(this.input, message);
      this.#held.set(received.lockToken, message);
      return received;
    });
  }

  async getState(): Promise<SessionState | null> {
    this.#assertHeld('getState');
    const state =
      this.statePlace === 'parked'
        ? await this.#parked.getState()
        : await guarded('get session state', () => this.receiver.getSessionState());
    if (state === null || state === undefined || (Buffer.isBuffer(state) && state.length === 0)) return null;
    if (Buffer.isBuffer(state)) return JSON.parse(state.toString('utf8')) as SessionState;
    return typeof state === 'object' ? (state as SessionState) : null;
  }

  async setState(state: SessionState | null): Promise<void> {
    this.#assertHeld('setState');
    assertSessionState(state);
    const encoded = state === null ? null : Buffer.from(JSON.stringify(state));
    if (this.statePlace === 'parked') await this.#parked.setState(encoded);
    else await guarded('set session state', () => this.receiver.setSessionState(encoded));
  }

  async complete(message: ReceivedMessage, effects?: SettleEffects): Promise<void> {
    const held = this.#message(message, 'complete');
    await this.#applyEffects(effects);
    await guarded('complete', () => this.receiver.completeMessage(held));
    this.#held.delete(message.lockToken);
  }

  async abandon(message: ReceivedMessage): Promise<void> {
    const held = this.#message(message, 'abandon');
    await guarded('abandon', () => this.receiver.abandonMessage(held));
    this.#held.delete(message.lockToken);
  }

  async deadLetter(message: ReceivedMessage, options: DeadLetterOptions): Promise<void> {
    const outcome = deadLetterOutcome(options);
    const held = this.#message(message, 'deadLetter');
    await this.#applyEffects(options.effects);
    await guarded('dead-letter', () =>
      this.receiver.deadLetterMessage(held, {
        deadLetterReason: outcome.reason,
        deadLetterErrorDescription: outcome.description ?? undefined,
        [DEAD_LETTERED_AT_PROPERTY]: new Date().toISOString(),
      } as never),
    );
    this.#held.delete(message.lockToken);
  }

  async readParked(fromSequence: number, max: number): Promise<ParkedMessage[]> {
    this.#assertHeld('readParked');
    return this.#parked.read(fromSequence, max);
  }

  async renewLock(): Promise<Date> {
    this.#assertHeld('renewLock');
    this.#lockedUntil = await guarded('renew session lock', () => this.receiver.renewSessionLock());
    await this.#parked.renew();
    return this.#lockedUntil;
  }

  async release(): Promise<void> {
    if (this.#released) return;
    this.#released = true;
    this.#held.clear();
    this.#buffered.length = 0;
    await this.#parked.close();
    await this.receiver.close().catch(() => undefined);
  }

  async #applyEffects(effects: SettleEffects | undefined): Promise<void> {
    if (!effects) return;
    assertSettleEffects(effects);
    // The same budget as a publish call: an answer too large to send refuses the settlement before any step.
    if (effects.publish?.length) assertPublishBatchSize(effects.publish, MAX_BATCH_BYTES);
    const deadLetters = effects.deadLetterParked ?? [];
    const planned = effects.publish?.length ? await this.publisher.plan(effects.publish) : [];
    await this.#parked.assertParked(deadLetters.map((d) => d.sequence));
    if (planned.length > 0) await this.publisher.send(planned);
    if (effects.park?.length) await this.#parked.park(effects.park);
    if (deadLetters.length > 0) await this.#parked.deadLetter(deadLetters);
    if (effects.unpark?.length) await this.#parked.unpark(effects.unpark);
    if (effects.state !== undefined) await this.setState(effects.state);
  }

  #message(message: ReceivedMessage, operation: string): ServiceBusReceivedMessage {
    this.#assertHeld(operation);
    const held = this.#held.get(message.lockToken);
    if (!held) {
      throw new TransportError(
        TransportErrorCode.MessageLockLost,
        `message ${message.sequence} of session '${this.sessionId}' is not held by this lease (settled already?)`,
      );
    }
    return held;
  }

  #assertHeld(operation: string): void {
    this.life.assertUsable(operation);
    if (this.#released) {
      throw new TransportError(
        TransportErrorCode.SessionLockLost,
        `session '${this.sessionId}' was released`,
      );
    }
    // The fence on Service Bus: past the session lock's expiry nothing is applied, not even a settlement's
    // publishes (they go out before the broker would refuse the settlement itself).
    if (Date.now() >= this.#lockedUntil.getTime()) {
      throw new TransportError(
        TransportErrorCode.SessionLockLost,
        `the lock on session '${this.sessionId}' at '${this.input}' expired at ${this.#lockedUntil.toISOString()}; nothing was applied`,
      );
    }
  }
}
