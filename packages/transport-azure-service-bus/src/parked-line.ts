import type {
  ServiceBusClient,
  ServiceBusReceivedMessage,
  ServiceBusSessionReceiver,
} from '@azure/service-bus';
import {
  type ParkedDeadLetter,
  type ParkedMessage,
  TransportErrorCode,
  type TransportMessage,
} from '@nimbus/core';
import { parkedMessageNotFound } from '@nimbus/core/transport-spi';
import Long from 'long';
import { widenDrainWait } from './drain-wait.js';
import { guarded, isCode } from './errors.js';
import { fromServiceBus, toServiceBus } from './message-mapping.js';
import {
  DEAD_LETTERED_AT_PROPERTY,
  INPUT_PROPERTY,
  PARKED_AT_PROPERTY,
  PARKED_SEQUENCE_PROPERTY,
  parkedOf,
  topicOf,
} from './names.js';
import type { Publisher } from './publisher.js';

const PEEK_PAGE = 250;

interface ParkedEntry {
  readonly parked: ParkedMessage;
  readonly serviceBusSequence: Long;
}

/**
 * One session's parked line: deferred messages in the input's `.parked` session subscription, each carrying
 * its permanent NimBus sequence. Only the holder of the input session touches it, so its session lock is taken
 * with the input's and given up with it.
 */
export class ParkedLine {
  #receiver: ServiceBusSessionReceiver | null = null;

  constructor(
    readonly client: ServiceBusClient,
    readonly publisher: Publisher,
    readonly input: string,
    readonly sessionId: string,
    readonly lockDurationMs: number,
  ) {}

  async read(fromSequence: number, max: number): Promise<ParkedMessage[]> {
    const entries = await this.#entries();
    return entries
      .filter((e) => e.parked.sequence >= fromSequence)
      .slice(0, max)
      .map((e) => e.parked);
  }

  /** Parks messages at their sequence; a sequence already parked is left as it is. */
  async park(items: readonly { sequence: number; message: TransportMessage }[]): Promise<void> {
    if (items.length === 0) return;
    const present = new Set((await this.#entries()).map((e) => e.parked.sequence));
    const fresh = items.filter((item) => !present.has(item.sequence));
    if (fresh.length === 0) return;
    const parkedAt = new Date().toISOString();
    await this.publisher.send(
      fresh.map((item) => ({
        topic: topicOf(this.input),
        message: toServiceBus(
          { ...item.message, sessionId: this.sessionId },
          {
            [INPUT_PROPERTY]: parkedOf(this.input),
            [PARKED_SEQUENCE_PROPERTY]: item.sequence,
            [PARKED_AT_PROPERTY]: parkedAt,
          },
        ),
      })),
    );
    // Deferred at once: a parked message is read by sequence, never received in turn.
    const receiver = await this.#session();
    let deferred = 0;
    while (deferred < fresh.length) {
      const batch = await guarded('park', () =>
        receiver.receiveMessages(fresh.length - deferred, { maxWaitTimeInMs: 1_000 }),
      );
      if (batch.length === 0) break;
      for (const message of batch) await guarded('park', () => receiver.deferMessage(message));
      deferred += batch.length;
    }
  }

  /**
   * Fails with MessageNotFound, changing nothing, when a sequence is not parked. A sequence this session already
   * dead-lettered passes: that is a settlement repeated after a crash between its steps, and is done already.
   */
  async assertParked(sequences: readonly number[]): Promise<void> {
    if (sequences.length === 0) return;
    const present = new Set((await this.#entries()).map((e) => e.parked.sequence));
    const missing = sequences.filter((sequence) => !present.has(sequence));
    if (missing.length === 0) return;
    const done = await this.#deadLettered();
    for (const sequence of missing) {
      if (!done.has(sequence)) throw parkedMessageNotFound(this.input, this.sessionId, sequence);
    }
  }

  /** Permanent sequences of this session's parked messages already in the parked line's dead-letter queue. */
  async #deadLettered(): Promise<Set<number>> {
    const receiver = this.client.createReceiver(topicOf(this.input), parkedOf(this.input), {
      subQueueType: 'deadLetter',
      skipParsingBodyAsJson: true,
    });
    try {
      const done = new Set<number>();
      let from = Long.fromNumber(1);
      for (;;) {
        const page = await guarded('read parked dead letters', () =>
          receiver.peekMessages(PEEK_PAGE, { fromSequenceNumber: from }),
        );
        for (const message of page) {
          if (message.sessionId === this.sessionId) {
            done.add(Number(message.applicationProperties?.[PARKED_SEQUENCE_PROPERTY]));
          }
        }
        if (page.length < PEEK_PAGE) return done;
        from = page[page.length - 1]!.sequenceNumber!.add(1);
      }
    } finally {
      await receiver.close();
    }
  }

  async unpark(sequences: readonly number[]): Promise<void> {
    for (const message of await this.#take(sequences)) {
      await guarded('unpark', () => this.#receiver!.completeMessage(message));
    }
  }

  async deadLetter(entries: readonly ParkedDeadLetter[]): Promise<void> {
    const taken = await this.#take(entries.map((e) => e.sequence));
    for (const message of taken) {
      const entry = entries.find(
        (e) => e.sequence === Number(message.applicationProperties?.[PARKED_SEQUENCE_PROPERTY]),
      );
      await guarded('dead-letter parked', () =>
        this.#receiver!.deadLetterMessage(message, {
          deadLetterReason: entry!.reason,
          deadLetterErrorDescription: entry!.description ?? undefined,
          [DEAD_LETTERED_AT_PROPERTY]: new Date().toISOString(),
        } as never),
      );
    }
  }

  async close(): Promise<void> {
    const receiver = this.#receiver;
    this.#receiver = null;
    await receiver?.close().catch(() => undefined);
  }

  /** Locks the deferred messages at `sequences` (those still parked; a repeat after a crash finds fewer). */
  async #take(sequences: readonly number[]): Promise<ServiceBusReceivedMessage[]> {
    if (sequences.length === 0) return [];
    const wanted = new Set(sequences);
    const entries = (await this.#entries()).filter((e) => wanted.has(e.parked.sequence));
    if (entries.length === 0) return [];
    const receiver = await this.#session();
    return guarded('read parked', () =>
      receiver.receiveDeferredMessages(entries.map((e) => e.serviceBusSequence)),
    );
  }

  async #entries(): Promise<ParkedEntry[]> {
    const receiver = await this.#session();
    const entries: ParkedEntry[] = [];
    let from = Long.fromNumber(1);
    for (;;) {
      const page = await guarded('read parked', () =>
        receiver.peekMessages(PEEK_PAGE, { fromSequenceNumber: from }),
      );
      for (const message of page) {
        const sequence = Number(message.applicationProperties?.[PARKED_SEQUENCE_PROPERTY]);
        if (!Number.isSafeInteger(sequence)) continue;
        entries.push({
          serviceBusSequence: message.sequenceNumber!,
          parked: {
            sequence,
            message: fromServiceBus(message),
            parkedAt: new Date(
              String(message.applicationProperties?.[PARKED_AT_PROPERTY] ?? message.enqueuedTimeUtc),
            ),
          },
        });
      }
      if (page.length < PEEK_PAGE) break;
      from = page[page.length - 1]!.sequenceNumber!.add(1);
    }
    return entries.sort((a, b) => a.parked.sequence - b.parked.sequence);
  }

  /** The parked session's receiver; waits out a lock a crashed holder left behind (up to one lock duration). */
  async #session(): Promise<ServiceBusSessionReceiver> {
    if (this.#receiver) return this.#receiver;
    const deadline = Date.now() + this.lockDurationMs + 1_000;
    for (;;) {
      try {
        this.#receiver = widenDrainWait(
          await guarded('lock parked line', () =>
            this.client.acceptSession(topicOf(this.input), parkedOf(this.input), this.sessionId, {
              maxAutoLockRenewalDurationInMs: 0,
              skipParsingBodyAsJson: true,
            }),
          ),
        );
        return this.#receiver;
      } catch (error) {
        if (!isCode(error, TransportErrorCode.SessionCannotBeLocked) || Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }

  /** Keeps the parked session's lock alive with the input session's. */
  /** The parked session's own state (where a host that cannot read the input session's state keeps it). */
  async getState(): Promise<unknown> {
    const receiver = await this.#session();
    return guarded('get parked line state', () => receiver.getSessionState());
  }

  async setState(state: Buffer | null): Promise<void> {
    const receiver = await this.#session();
    await guarded('set parked line state', () => receiver.setSessionState(state));
  }

  async renew(): Promise<void> {
    if (this.#receiver) await guarded('renew parked line', () => this.#receiver!.renewSessionLock());
  }
}
