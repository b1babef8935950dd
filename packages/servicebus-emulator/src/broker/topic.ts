import { randomUUID } from 'node:crypto';
import { BrokerError, Condition } from '../wire/errors.js';
import type { MemoryBudget } from './budget.js';
import { DuplicateHistory, NEVER_MS, type TopicProperties } from './entity-properties.js';
import { type AmqpMessage, messageSize } from './message.js';
import type { Subscription } from './subscription.js';

export const SCHEDULED_TIME_ANNOTATION = 'x-opt-scheduled-enqueue-time';

interface Scheduled {
  readonly message: AmqpMessage;
  readonly at: number;
  readonly size: number;
  readonly timer: NodeJS.Timeout;
}

/** A topic: fans each message out to the subscriptions whose rules select it; holds scheduled messages. */
export class Topic {
  readonly subscriptions = new Map<string, Subscription>();
  readonly #scheduled = new Map<number, Scheduled>();
  readonly createdAt = new Date();
  readonly #duplicates: DuplicateHistory | null;
  updatedAt = new Date();
  /** Sends a copy on for a subscription with `forwardTo` (set by the namespace, which knows the targets). */
  forwarder: ((from: Subscription, message: AmqpMessage) => void) | null = null;

  constructor(
    readonly name: string,
    readonly properties: TopicProperties,
    readonly budget: MemoryBudget,
    readonly nextSequence: () => number,
    /** Told when a due scheduled message cannot be enqueued (say, a session subscription and no session id). */
    readonly onUndeliverable: (sequence: number, error: unknown) => void,
  ) {
    this.#duplicates = properties.requiresDuplicateDetection
      ? new DuplicateHistory(properties.duplicateDetectionWindowMs)
      : null;
  }

  get scheduledCount(): number {
    return this.#scheduled.size;
  }

  /** Sends now (or schedules, when the message carries a future scheduled enqueue time); all or nothing. */
  send(incoming: readonly AmqpMessage[]): void {
    const now = Date.now();
    // Like the service, a message without an id gets one.
    const stamped = incoming.map((m) =>
      m.message_id == null ? { ...m, message_id: randomUUID().replace(/-/g, '') } : m,
    );
    const messages = this.#withoutDuplicates(stamped, now);
    const plans: { message: AmqpMessage; copies: [Subscription, AmqpMessage][] }[] = [];
    const forwards: [Subscription, AmqpMessage][] = [];
    let count = 0;
    let bytes = 0;
    for (const message of messages) {
      const at = scheduledTime(message);
      if (at !== null && at > now) {
        plans.push({ message, copies: [] });
        count++;
        bytes += messageSize(message);
        continue;
      }
      const copies: [Subscription, AmqpMessage][] = [];
      for (const subscription of this.subscriptions.values()) {
        for (const copy of subscription.select(message)) {
          if (subscription.properties.forwardTo !== null) {
            forwards.push([subscription, copy]);
            continue;
          }
          if (subscription.properties.requiresSession && !copy.group_id) {
            throw new BrokerError(
              Condition.invalidField,
              `subscription ${subscription.queue.path} requires sessions; the message has no session id`,
            );
          }
          copies.push([subscription, copy]);
          count++;
          bytes += messageSize(copy);
        }
      }
      plans.push({ message, copies });
    }
    this.budget.reserve(count, bytes);
    for (const message of messages) this.#duplicates?.record(String(message.message_id), now);
    for (const { message, copies } of plans) {
      const at = scheduledTime(message);
      if (at !== null && at > now) this.#schedule(message, at);
      else for (const [subscription, copy] of copies) this.#enqueue(subscription, copy, now);
    }
    // Forwarded copies are sends of their own to the target (which checks its own quotas and rules).
    for (const [subscription, copy] of forwards) this.forwarder?.(subscription, copy);
  }

  /** With duplicate detection on: the messages whose id was not seen in the window (nor earlier in this send). */
  #withoutDuplicates(messages: AmqpMessage[], now: number): AmqpMessage[] {
    const history = this.#duplicates;
    if (history === null) return messages;
    const inThisSend = new Set<string>();
    return messages.filter((message) => {
      const id = String(message.message_id);
      if (history.isDuplicate(id, now) || inThisSend.has(id)) return false;
      inThisSend.add(id);
      return true;
    });
  }

  /** Schedules messages for `at`; returns their sequence numbers (the handles to cancel them). */
  schedule(messages: readonly AmqpMessage[], at: number): number[] {
    const bytes = messages.reduce((sum, m) => sum + messageSize(m), 0);
    this.budget.reserve(messages.length, bytes);
    return messages.map((message) => this.#schedule(message, at));
  }

  cancel(sequence: number): void {
    const scheduled = this.#scheduled.get(sequence);
    if (!scheduled) {
      throw new BrokerError(
        Condition.messageNotFound,
        `no scheduled message with sequence number ${sequence} on topic ${this.name}`,
      );
    }
    clearTimeout(scheduled.timer);
    this.#scheduled.delete(sequence);
    this.budget.release(1, scheduled.size);
  }

  /** Scheduled messages in sequence order (for peek on the topic). */
  scheduled(): { sequence: number; message: AmqpMessage; at: number }[] {
    return [...this.#scheduled].map(([sequence, s]) => ({ sequence, message: s.message, at: s.at }));
  }

  dispose(): void {
    for (const scheduled of this.#scheduled.values()) clearTimeout(scheduled.timer);
    this.#scheduled.clear();
  }

  #schedule(message: AmqpMessage, at: number): number {
    const sequence = this.nextSequence();
    const size = messageSize(message);
    const timer = setTimeout(() => this.#release(sequence), Math.max(0, at - Date.now())).unref();
    this.#scheduled.set(sequence, { message, at, size, timer });
    return sequence;
  }

  #release(sequence: number): void {
    const scheduled = this.#scheduled.get(sequence);
    if (!scheduled) return;
    this.#scheduled.delete(sequence);
    this.budget.release(1, scheduled.size);
    const annotations = { ...scheduled.message.message_annotations };
    delete annotations[SCHEDULED_TIME_ANNOTATION];
    try {
      this.send([{ ...scheduled.message, message_annotations: annotations }]);
    } catch (error) {
      // A due message that no longer fits is kept scheduled a little longer rather than dropped.
      if (error instanceof BrokerError && error.condition === Condition.quotaExceeded) {
        this.#schedule(scheduled.message, Date.now() + 1_000);
      } else this.onUndeliverable(sequence, error);
    }
  }

  #enqueue(subscription: Subscription, copy: AmqpMessage, now: number): void {
    // The topic's default time to live caps the message's own.
    const cap = this.properties.defaultMessageTtlMs;
    if (cap < NEVER_MS && !(typeof copy.ttl === 'number' && copy.ttl > 0 && copy.ttl <= cap)) copy.ttl = cap;
    subscription.queue.enqueue(copy, this.nextSequence(), now);
  }
}

function scheduledTime(message: AmqpMessage): number | null {
  const value = message.message_annotations?.[SCHEDULED_TIME_ANNOTATION];
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'number') return value;
  return null;
}
