import type {
  ServiceBusAdministrationClient,
  ServiceBusClient,
  ServiceBusReceivedMessage,
  ServiceBusReceiver,
} from '@azure/service-bus';
import type { DeadLetteredMessage, PeekedMessage, PurgeTarget, TransportCounts } from '@nimbus/core';
import Long from 'long';
import { guarded } from './errors.js';
import { fromServiceBus, sequenceOf, toServiceBus } from './message-mapping.js';
import { DEAD_LETTERED_AT_PROPERTY, INPUT_PROPERTY, parkedOf, topicOf } from './names.js';
import type { Publisher } from './publisher.js';

const PAGE = 250;
const QUIET_MS = 300;

async function peekAll(
  receiver: ServiceBusReceiver,
  max = Number.MAX_SAFE_INTEGER,
): Promise<ServiceBusReceivedMessage[]> {
  const all: ServiceBusReceivedMessage[] = [];
  let from = Long.fromNumber(1);
  while (all.length < max) {
    const page = await receiver.peekMessages(Math.min(PAGE, max - all.length), { fromSequenceNumber: from });
    all.push(...page);
    if (page.length === 0) break;
    from = page[page.length - 1]!.sequenceNumber!.add(1);
  }
  return all;
}

/** Peek, counts, dead letters, requeue and purge for one namespace, read through the SDK's receivers and admin client. */
export class OperatorViews {
  /** Peek-only receivers, kept open: each new one costs a management link (and its token) before its first peek. */
  readonly #peekers = new Map<string, ServiceBusReceiver>();

  constructor(
    readonly client: ServiceBusClient,
    readonly admin: ServiceBusAdministrationClient,
    readonly publisher: Publisher,
  ) {}

  async close(): Promise<void> {
    await Promise.all([...this.#peekers.values()].map((r) => r.close().catch(() => undefined)));
    this.#peekers.clear();
  }

  #peeker(input: string, subscription: string, deadLetter = false): ServiceBusReceiver {
    const key = `${subscription}${deadLetter ? '#dlq' : ''}`;
    let receiver = this.#peekers.get(key);
    if (!receiver) {
      receiver = this.client.createReceiver(topicOf(input), subscription, {
        skipParsingBodyAsJson: true,
        ...(deadLetter ? { subQueueType: 'deadLetter' as const } : {}),
      });
      this.#peekers.set(key, receiver);
    }
    return receiver;
  }

  async peek(input: string, max: number, sessionId?: string): Promise<PeekedMessage[]> {
    const receiver = this.#peeker(input, input);
    const messages = await guarded(`peek '${input}'`, () => peekAll(receiver));
    return messages
      .filter((m) => m.state === 'active' && (sessionId === undefined || m.sessionId === sessionId))
      .slice(0, max)
      .map((m) => ({
        ...fromServiceBus(m),
        input,
        sequence: sequenceOf(m),
        deliveryCount: m.deliveryCount ?? 0,
        enqueuedAt: m.enqueuedTimeUtc ?? new Date(0),
        visibleAt: m.enqueuedTimeUtc ?? new Date(0),
      }));
  }

  async counts(input: string): Promise<TransportCounts> {
    const topic = topicOf(input);
    return guarded(`counts of '${input}'`, async () => {
      const [main, parked, scheduled] = await Promise.all([
        this.admin.getSubscriptionRuntimeProperties(topic, input),
        this.admin.getSubscriptionRuntimeProperties(topic, parkedOf(input)),
        this.#scheduled(input),
      ]);
      return {
        active: main.activeMessageCount,
        scheduled: scheduled.length,
        deadLettered: main.deadLetterMessageCount + parked.deadLetterMessageCount,
        parked: parked.activeMessageCount,
      };
    });
  }

  async peekDeadLetters(input: string, max: number): Promise<DeadLetteredMessage[]> {
    const all: DeadLetteredMessage[] = [];
    for (const subscription of [input, parkedOf(input)]) {
      const receiver = this.#peeker(input, subscription, true);
      for (const m of await guarded(`peek dead letters of '${input}'`, () => peekAll(receiver))) {
        all.push({
          ...fromServiceBus(m, 'dead-letter queue'),
          id: `${subscription}#${sequenceOf(m)}`,
          input,
          reason: m.deadLetterReason ?? '',
          description: m.deadLetterErrorDescription ?? null,
          deliveryCount: m.deliveryCount ?? 0,
          deadLetteredAt: new Date(
            String(m.applicationProperties?.[DEAD_LETTERED_AT_PROPERTY] ?? m.enqueuedTimeUtc),
          ),
        });
      }
    }
    return all
      .sort((a, b) => a.deadLetteredAt.getTime() - b.deadLetteredAt.getTime() || a.id.localeCompare(b.id))
      .slice(0, max);
  }

  /** Sends dead-lettered messages back to the input as fresh deliveries (same message id and session), then removes them. */
  async requeue(input: string, ids?: readonly string[]): Promise<number> {
    const wanted = ids ? new Set(ids) : null;
    let moved = 0;
    for (const subscription of [input, parkedOf(input)]) {
      const receiver = this.#deadLetterReceiver(input, subscription);
      try {
        for (;;) {
          const batch = await guarded('requeue', () =>
            receiver.receiveMessages(PAGE, { maxWaitTimeInMs: QUIET_MS }),
          );
          if (batch.length === 0) break;
          const keep = batch.filter((m) => wanted && !wanted.has(`${subscription}#${sequenceOf(m)}`));
          const take = batch.filter((m) => !keep.includes(m));
          await this.publisher.send(
            take.map((m) => ({
              topic: topicOf(input),
              message: toServiceBus(fromServiceBus(m, 'dead-letter queue'), { [INPUT_PROPERTY]: input }),
            })),
          );
          for (const m of take) await guarded('requeue', () => receiver.completeMessage(m));
          moved += take.length;
          if (wanted && moved >= wanted.size) break;
        }
      } finally {
        await receiver.close();
      }
    }
    return moved;
  }

  async purge(input: string, target: PurgeTarget): Promise<number> {
    let purged = 0;
    if (target === 'deadLettered' || target === 'all') {
      for (const subscription of [input, parkedOf(input)])
        purged += await this.#drain(this.#deadLetterReceiver(input, subscription, true));
    }
    if (target === 'scheduled' || target === 'all') {
      const scheduled = await this.#scheduled(input);
      if (scheduled.length > 0) {
        await guarded('purge scheduled', () =>
          this.publisher.sender(topicOf(input)).cancelScheduledMessages(scheduled),
        );
      }
      purged += scheduled.length;
    }
    if (target === 'active' || target === 'all') purged += await this.#drainSessions(input);
    if (target === 'parked' || target === 'all') purged += await this.#drainSessions(parkedOf(input), true);
    return purged;
  }

  /** Sequence numbers of the input's scheduled messages (peek shows them as `scheduled`). */
  async #scheduled(input: string): Promise<Long[]> {
    const all = await peekAll(this.#peeker(input, input));
    return all.filter((m) => m.state === 'scheduled').map((m) => m.sequenceNumber!);
  }

  #deadLetterReceiver(input: string, subscription: string, deleting = false): ServiceBusReceiver {
    return this.client.createReceiver(topicOf(input), subscription, {
      subQueueType: 'deadLetter',
      skipParsingBodyAsJson: true,
      ...(deleting ? { receiveMode: 'receiveAndDelete' as const } : {}),
    });
  }

  async #drain(receiver: ServiceBusReceiver): Promise<number> {
    let count = 0;
    try {
      for (;;) {
        const batch = await guarded('purge', () =>
          receiver.receiveMessages(PAGE, { maxWaitTimeInMs: QUIET_MS }),
        );
        if (batch.length === 0) return count;
        count += batch.length;
      }
    } finally {
      await receiver.close();
    }
  }

  /** Removes the messages of every session of `subscription` that is not held elsewhere (deferred ones too). */
  async #drainSessions(subscription: string, deferred = false): Promise<number> {
    const input = subscription.replace(/\.parked$/, '');
    const receiver = this.client.createReceiver(topicOf(input), subscription);
    const sessions = new Map<string, Long[]>();
    try {
      for (const m of await guarded('purge', () => peekAll(receiver))) {
        const list = sessions.get(m.sessionId ?? '') ?? [];
        if (deferred || m.state === 'active') list.push(m.sequenceNumber!);
        sessions.set(m.sessionId ?? '', list);
      }
    } finally {
      await receiver.close();
    }
    let count = 0;
    for (const [sessionId, sequences] of sessions) {
      if (sequences.length === 0) continue;
      const session = await guarded('purge', () =>
        this.client.acceptSession(topicOf(input), subscription, sessionId, {
          maxAutoLockRenewalDurationInMs: 0,
        }),
      ).catch(() => null);
      if (!session) continue;
      try {
        const messages = deferred
          ? await session.receiveDeferredMessages(sequences)
          : await session.receiveMessages(sequences.length, { maxWaitTimeInMs: QUIET_MS });
        for (const m of messages) await session.completeMessage(m);
        count += messages.length;
      } finally {
        await session.close();
      }
    }
    return count;
  }
}
