import type { MessageEnvelope } from '../envelope/envelope.js';
import { encodeEnvelope } from '../envelope/wire.js';
import type { ParkedDeadLetter, PublishRequest, SettleEffects } from '../transport/transport.js';
import type { TransportMessage } from '../transport/transport-message.js';
import { type EngineSessionState, sessionStatesEqual, writeSessionState } from './session-state.js';

/** How one message ended, as the engine and its observers see it. */
export type Verdict =
  /** `duplicate`: the inbox said this endpoint already handled the message; the handler did not run. */
  | { readonly kind: 'completed'; readonly duplicate?: boolean }
  | { readonly kind: 'parked'; readonly blockedByEventId: string | null }
  /** An operator request the session's state does not allow: answered with a `RefusalResponse`, nothing ran. */
  | { readonly kind: 'refused'; readonly reason: string }
  /** The handler failed; the error response, block and retry are planned; the message is completed. */
  | { readonly kind: 'failed'; readonly error: unknown }
  | { readonly kind: 'deadLetter'; readonly reason: string; readonly error: unknown }
  | { readonly kind: 'transient'; readonly error: unknown }
  /** A behaviour did not call `next()`: nothing was decided, the message is delivered again. */
  | { readonly kind: 'skipped' };

/** What a procedure decides for its message (the other verdicts come from errors and skipped pipelines). */
export type StepVerdict = Extract<Verdict, { kind: 'completed' | 'parked' | 'refused' | 'failed' }>;

/** Everything one settlement carries: responses, scheduled retries, parks and unparks. */
export class EffectsBuilder {
  readonly responses: MessageEnvelope[] = [];
  readonly scheduled: { envelope: MessageEnvelope; at: Date }[] = [];
  readonly park: { sequence: number; message: TransportMessage }[] = [];
  readonly unpark: number[] = [];
  /** Replayed parked messages that failed for good: the transport moves them to its dead-letter list. */
  readonly deadLetterParked: ParkedDeadLetter[] = [];

  append(other: EffectsBuilder): void {
    this.responses.push(...other.responses);
    this.scheduled.push(...other.scheduled);
    this.park.push(...other.park);
    this.unpark.push(...other.unpark);
    this.deadLetterParked.push(...other.deadLetterParked);
  }

  toSettleEffects(source: string, before: EngineSessionState, after: EngineSessionState): SettleEffects {
    const publish: PublishRequest[] = [];
    if (this.responses.length > 0) {
      publish.push({ source, messages: this.responses.map(encodeEnvelope) });
    }
    for (const { envelope, at } of this.scheduled) {
      publish.push({ source, messages: [encodeEnvelope(envelope)], enqueueAt: at });
    }
    return {
      ...(publish.length > 0 ? { publish } : {}),
      ...(this.park.length > 0 ? { park: [...this.park] } : {}),
      ...(this.unpark.length > 0 ? { unpark: [...this.unpark] } : {}),
      ...(this.deadLetterParked.length > 0 ? { deadLetterParked: [...this.deadLetterParked] } : {}),
      ...(sessionStatesEqual(before, after) ? {} : { state: writeSessionState(after) }),
    };
  }
}
