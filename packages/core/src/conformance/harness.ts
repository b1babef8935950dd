import type { ManualClock } from '../clock.js';
import { Header } from '../envelope/headers.js';
import { NimBusErrorCode } from '../errors/error-codes.js';
import { NimBusError } from '../errors/nimbus-error.js';
import { uuidv7 } from '../ids.js';
import type { Topology } from '../transport/topology.js';
import type { ReceivedMessage, SessionHandle, Transport } from '../transport/transport.js';
import type { TransportMessage } from '../transport/transport-message.js';

/** What a transport's test gives the conformance suite; the factory is called once per case. */
export interface TransportConformanceFixture {
  readonly transport: Transport;
  /** The clock the transport reads, when the test controls it. */
  readonly clock?: ManualClock;
  /** Moves the transport's time forward by `ms`; without it (and without `clock`) the suite waits in real time. */
  advance?(ms: number): Promise<void>;
  cleanup(): Promise<void>;
  /**
   * Optional, for transports that store messages serialised: overwrites the stored headers of the queued message
   * `messageId` at `input` with `rawHeaders` as stored text (e.g. `'{not json'`, `'null'`), the way a foreign
   * producer or a damaged row would leave them. Cases about unreadable headers are skipped without it.
   */
  corruptStoredHeaders?(input: string, messageId: string, rawHeaders: string): Promise<void>;
  /**
   * Optional: a second transport over the same storage with a smaller `maxBatchBytes`, like a consumer configured
   * with a smaller budget than its producer. Cases about oversized messages are skipped without it.
   */
  openConsumer?(options: { readonly maxBatchBytes: number }): Promise<Transport>;
}

export type TransportConformanceFactory = () => Promise<TransportConformanceFixture>;

/** The longest lock duration the suite will wait out in real time (keeps each case under ~2 s). */
export const MAX_REAL_TIME_LOCK_MS = 1_500;

/** Endpoints and routes every case starts from: Crm's CustomerChanged reaches Erp and Billing; Erp's OrderPlaced reaches Crm. */
export const CONFORMANCE_TOPOLOGY: Topology = {
  endpoints: ['Billing', 'Crm', 'Erp'],
  routes: [
    { source: 'Crm', eventTypeId: 'CustomerChanged', target: 'Billing' },
    { source: 'Crm', eventTypeId: 'CustomerChanged', target: 'Erp' },
    { source: 'Erp', eventTypeId: 'OrderPlaced', target: 'Crm' },
  ],
};

export class Harness {
  #advanced = 0;

  constructor(readonly fixture: TransportConformanceFixture) {}

  get transport(): Transport {
    return this.fixture.transport;
  }

  get controlsTime(): boolean {
    return this.fixture.advance !== undefined || this.fixture.clock !== undefined;
  }

  /** Whether lock expiry can be reached in this run (a controllable clock, or a short real lock). */
  get canOutwaitLocks(): boolean {
    return this.controlsTime || this.transport.capabilities.lockDurationMs <= MAX_REAL_TIME_LOCK_MS;
  }

  /** How long an accept/receive may wait for something that must already be there. */
  get presenceWaitMs(): number {
    return this.controlsTime
      ? 0
      : Math.min(1_000, Math.floor(this.transport.capabilities.lockDurationMs / 2));
  }

  now(): number {
    return this.fixture.clock ? this.fixture.clock.now() : Date.now() + this.#advanced;
  }

  async elapse(ms: number): Promise<void> {
    if (this.fixture.advance) {
      this.#advanced += this.fixture.clock ? 0 : ms;
      await this.fixture.advance(ms);
    } else if (this.fixture.clock) {
      this.fixture.clock.advance(ms);
    } else {
      await new Promise((resolve) => setTimeout(resolve, ms));
    }
    await new Promise((resolve) => setImmediate(resolve));
  }

  /** Publishes on the topic of `source`. */
  async send(source: string, ...messages: TransportMessage[]): Promise<void> {
    await this.transport.publish([{ source, messages }]);
  }

  /** Sends `bodies` to `input`'s own address, one message each, in one session. */
  async sendTo(input: string, sessionId: string, ...bodies: string[]): Promise<TransportMessage[]> {
    const messages = bodies.map((body) => message({ sessionId, to: input, body }));
    await this.send(input, ...messages);
    return messages;
  }

  async accept(input: string, sessionId?: string): Promise<SessionHandle> {
    const session = await this.transport.acceptSession(input, {
      sessionId: sessionId ?? null,
      waitMs: this.presenceWaitMs,
    });
    if (!session)
      throw new NimBusError(
        NimBusErrorCode.ExpectationFailed,
        `expected to accept ${sessionId ? `session '${sessionId}'` : 'a session'} at ${input}`,
      );
    return session;
  }

  async tryAccept(input: string, sessionId?: string): Promise<SessionHandle | null> {
    return this.transport.acceptSession(input, { sessionId: sessionId ?? null, waitMs: 0 });
  }

  async receiveOne(session: SessionHandle): Promise<ReceivedMessage> {
    const [received] = await session.receive({ max: 1, waitMs: this.presenceWaitMs });
    if (!received)
      throw new NimBusError(
        NimBusErrorCode.ExpectationFailed,
        `expected a message in session '${session.sessionId}'`,
      );
    return received;
  }

  /** Receives until `count` messages arrived or nothing more comes. */
  async receiveAll(session: SessionHandle, count: number): Promise<ReceivedMessage[]> {
    const all: ReceivedMessage[] = [];
    while (all.length < count) {
      const batch = await session.receive({ max: count - all.length, waitMs: this.presenceWaitMs });
      if (batch.length === 0) break;
      all.push(...batch);
    }
    return all;
  }
}

export interface MessageInit {
  readonly sessionId: string;
  readonly to?: string;
  readonly from?: string;
  readonly eventTypeId?: string;
  readonly body?: string;
  readonly headers?: Record<string, string>;
}

export function message(init: MessageInit): TransportMessage {
  const headers: Record<string, string> = { ...init.headers };
  if (init.to !== undefined) headers[Header.To] = init.to;
  if (init.from !== undefined) headers[Header.From] = init.from;
  if (init.eventTypeId !== undefined) headers[Header.EventTypeId] = init.eventTypeId;
  return {
    messageId: uuidv7(),
    sessionId: init.sessionId,
    correlationId: `corr-${init.sessionId}`,
    headers,
    body: init.body ?? '{}',
  };
}

export function bodiesOf(messages: readonly { body: string }[]): string[] {
  return messages.map((m) => m.body);
}
