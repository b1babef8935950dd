import {
  type BatchSettlement,
  createEnvelope,
  type DeadLetterOptions,
  decodeEnvelope,
  type EnvelopeInit,
  type EventContextHandler,
  encodeEnvelope,
  type MessageEnvelope,
  type MessageHandlingContext,
  MessageType,
  type ParkedMessage,
  type PublishRequest,
  type ReceivedMessage,
  type SessionHandle,
  type SessionState,
  type SettleEffects,
  type TransportMessage,
  uuidv7,
} from '../../src/index.js';

export type Settlement =
  | { kind: 'complete'; message: ReceivedMessage; effects: SettleEffects }
  | {
      kind: 'deadLetter';
      message: ReceivedMessage;
      reason: string;
      description: string | null;
      effects: SettleEffects;
    }
  | { kind: 'abandon'; message: ReceivedMessage };

/** A session handle that records settlements and applies their effects in memory. */
export class FakeSession implements SessionHandle {
  readonly input: string;
  readonly sessionId: string;
  readonly lockedUntil = new Date(Date.UTC(2030, 0, 1));
  state: SessionState | null = null;
  readonly parked = new Map<number, TransportMessage>();
  readonly settlements: Settlement[] = [];
  /** Parked messages a settlement moved to the dead letters (`deadLetterParked`). */
  readonly deadLettered: {
    sequence: number;
    message: TransportMessage;
    reason: string;
    description: string | null;
  }[] = [];
  readonly published: { request: PublishRequest; envelope: MessageEnvelope }[] = [];
  #sequence = 0;

  constructor(input = 'Billing', sessionId = 'session-1') {
    this.input = input;
    this.sessionId = sessionId;
  }

  async receive(): Promise<ReceivedMessage[]> {
    return [];
  }
  async getState() {
    return this.state;
  }
  async setState(state: SessionState | null) {
    this.state = state;
  }
  #apply(effects: SettleEffects) {
    for (const request of effects.publish ?? []) {
      for (const message of request.messages)
        this.published.push({ request, envelope: decodeLoosely(message) });
    }
    for (const { sequence, message } of effects.park ?? []) this.parked.set(sequence, message);
    for (const sequence of effects.unpark ?? []) this.parked.delete(sequence);
    for (const { sequence, reason, description } of effects.deadLetterParked ?? []) {
      const message = this.parked.get(sequence);
      if (!message) throw new Error(`deadLetterParked: nothing parked at ${sequence}`);
      this.parked.delete(sequence);
      this.deadLettered.push({ sequence, message, reason, description });
    }
    if (effects.state !== undefined) this.state = effects.state;
  }
  async complete(message: ReceivedMessage, effects: SettleEffects = {}) {
    this.settlements.push({ kind: 'complete', message, effects });
    this.#apply(effects);
  }
  async abandon(message: ReceivedMessage) {
    this.settlements.push({ kind: 'abandon', message });
  }
  async deadLetter(message: ReceivedMessage, options: DeadLetterOptions) {
    const { reason, description, effects = {} } = options;
    this.settlements.push({ kind: 'deadLetter', message, reason, description, effects });
    this.#apply(effects);
  }
  async readParked(fromSequence: number, max: number): Promise<ParkedMessage[]> {
    return [...this.parked.entries()]
      .filter(([s]) => s >= fromSequence)
      .sort(([a], [b]) => a - b)
      .slice(0, max)
      .map(([sequence, message]) => ({ sequence, message, parkedAt: new Date(0) }));
  }
  async renewLock() {
    return this.lockedUntil;
  }
  async release() {}

  /** Wraps an envelope as a delivery on this session. */
  deliver(envelope: MessageEnvelope): ReceivedMessage {
    this.#sequence += 1;
    return {
      ...encodeEnvelope(envelope),
      input: this.input,
      sequence: this.#sequence,
      deliveryCount: 1,
      enqueuedAt: new Date(Date.UTC(2026, 0, 1)),
      lockToken: uuidv7(),
    };
  }

  get last(): Settlement | undefined {
    return this.settlements.at(-1);
  }
  /** Effects of the last settlement; fails when it was an abandon (which carries none). */
  lastEffects(): SettleEffects {
    const last = this.last;
    if (!last || last.kind === 'abandon')
      throw new Error(`expected a settlement with effects, got ${last?.kind}`);
    return last.effects;
  }
  responses(type?: string): MessageEnvelope[] {
    return this.published
      .filter((p) => p.request.enqueueAt === undefined)
      .map((p) => p.envelope)
      .filter((e) => type === undefined || e.messageType === type);
  }
  scheduled(): { envelope: MessageEnvelope; at: Date }[] {
    return this.published
      .filter((p) => p.request.enqueueAt !== undefined)
      .map((p) => ({ envelope: p.envelope, at: p.request.enqueueAt as Date }));
  }
  blockedBy(): string | null {
    return (this.state?.blockedByEventId as string | null | undefined) ?? null;
  }
}

/** A fake session that also settles batches (`settleMany`): all or nothing, recorded as one call each. */
export class BatchingFakeSession extends FakeSession {
  readonly batches: BatchSettlement[][] = [];
  /** When set, the next settleMany call fails with it and applies nothing. */
  failNext: Error | null = null;

  async settleMany(settlements: readonly BatchSettlement[]): Promise<void> {
    if (this.failNext) {
      const error = this.failNext;
      this.failNext = null;
      throw error;
    }
    this.batches.push([...settlements]);
    for (const { message, effects, deadLetter } of settlements) {
      if (deadLetter) await this.deadLetter(message, { ...deadLetter, effects });
      else await this.complete(message, effects);
    }
  }
}

function decodeLoosely(message: TransportMessage): MessageEnvelope {
  // Responses to the Resolver get `From` stamped by routing; stamp it here so they decode.
  return decodeEnvelope({ ...message, headers: { From: 'Billing', ...message.headers } });
}

let counter = 0;
export function event(
  init: Partial<EnvelopeInit> & { eventTypeId?: string; json?: unknown } = {},
): MessageEnvelope {
  counter += 1;
  const eventTypeId = init.eventTypeId ?? 'OrderPlaced';
  const { json, ...rest } = init;
  return createEnvelope({
    messageId: `msg-${counter}`,
    to: 'Billing',
    from: 'Sales',
    sessionId: 'session-1',
    correlationId: 'corr-1',
    messageType: MessageType.EventRequest,
    eventId: `event-${counter}`,
    eventTypeId,
    content: {
      eventContent: { eventTypeId, eventJson: JSON.stringify(json ?? { n: counter }) },
      errorContent: null,
    },
    ...rest,
  });
}

export function control(
  type: MessageType,
  of: MessageEnvelope,
  init: Partial<EnvelopeInit> = {},
): MessageEnvelope {
  counter += 1;
  return createEnvelope({
    ...of,
    messageId: `ctl-${counter}`,
    from: 'Manager',
    messageType: type,
    parentMessageId: of.messageId,
    ...init,
  });
}

/** A handler whose behaviour per call is scripted by a function; records every call. */
export class ScriptedHandler implements EventContextHandler {
  readonly calls: MessageHandlingContext[] = [];
  constructor(public script: (context: MessageHandlingContext) => void | Promise<void> = () => undefined) {}
  async handle(context: MessageHandlingContext) {
    this.calls.push(context);
    await this.script(context);
  }
  get handledEventIds() {
    return this.calls.map((c) => c.message.eventId);
  }
}
