import { BrokerError, Condition } from '../wire/errors.js';
import { MemoryBudget } from './budget.js';
import { DEFAULT_TOPIC, type TopicProperties } from './entity-properties.js';
import { forward } from './forwarding.js';
import { type Quotas, quotaExceeded, resolveQuotas, type Tier } from './limits.js';
import type { Queue } from './queue.js';
import { DEFAULT_SUBSCRIPTION, Subscription, type SubscriptionProperties } from './subscription.js';
import { Topic } from './topic.js';

export interface NamespaceOptions {
  readonly maxMessages?: number;
  readonly maxBytes?: number;
  /** The tier whose quotas apply (default 'standard'). */
  readonly tier?: Tier;
  /** Quotas that differ from the tier's (for tests: a low connection or entity count). */
  readonly quotas?: Partial<Quotas>;
  /**
   * The shortest lock duration the management API accepts (Service Bus: 5 s, the default). Tests of lock
   * expiry may lower it; the in-process `createSubscription` never checks it.
   */
  readonly minLockDurationMs?: number;
  /** Called after every topology change (topics, subscriptions, rules), e.g. to write a journal. */
  readonly onTopologyChanged?: () => void;
  readonly log?: (line: string) => void;
}

export type ResolvedEntity =
  | { readonly kind: 'topic'; readonly topic: Topic }
  | {
      readonly kind: 'queue';
      readonly topic: Topic;
      readonly subscription: Subscription;
      readonly queue: Queue;
    };

/** The SDK recognises a missing entity by this wording (MessagingEntityNotFound). */
export function entityNotFound(path: string): BrokerError {
  return new BrokerError(Condition.notFound, `The messaging entity '${path}' could not be found.`);
}

/** The name of a queue's one subscription (never visible: its path is the queue's name). */
export const QUEUE_SUBSCRIPTION = '$queue';

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,259}$/;

function assertName(kind: string, name: string): void {
  if (!NAME.test(name) || name.includes('..')) {
    throw new BrokerError(Condition.invalidField, `invalid ${kind} name '${name}'`);
  }
}

/** The emulated namespace: topics with subscriptions, a global sequence counter and a memory budget. */
export class Namespace {
  readonly topics = new Map<string, Topic>();
  /** Queues by lower-cased name: each a topic with the one subscription `QUEUE_SUBSCRIPTION`. */
  readonly queues = new Map<string, Topic>();
  readonly budget: MemoryBudget;
  readonly tier: Tier;
  readonly quotas: Quotas;
  #sequence = 0;

  constructor(readonly options: NamespaceOptions = {}) {
    this.budget = new MemoryBudget(options.maxMessages ?? 200_000, options.maxBytes ?? 256 * 1024 * 1024);
    this.tier = options.tier ?? 'standard';
    this.quotas = resolveQuotas(this.tier, options.quotas);
  }

  nextSequence = (): number => ++this.#sequence;

  /** Largest message a sender may send to `topic` (its own premium setting, else the tier's). */
  maxMessageBytes(topic: Topic): number {
    return topic.properties.maxMessageSizeBytes || this.quotas.maxMessageBytes;
  }

  createTopic(name: string, properties: Partial<TopicProperties> = {}): Topic {
    const topic = this.#newEntity('topic', name, properties);
    this.topics.set(name.toLowerCase(), topic);
    this.#changed();
    return topic;
  }

  /**
   * A queue: its sending side is a topic of its own and its receiving side one subscription whose path
   * is the queue's name, so sessions, dead-lettering, deferral, TTL and forwarding work as they do on
   * subscriptions.
   */
  createQueue(
    name: string,
    topicProperties: Partial<TopicProperties> = {},
    properties: Partial<SubscriptionProperties> = {},
  ): Topic {
    const topic = this.#newEntity('queue', name, topicProperties);
    const subscription = new Subscription(
      name,
      QUEUE_SUBSCRIPTION,
      { ...DEFAULT_SUBSCRIPTION, ...properties },
      this.budget,
      undefined,
      name,
    );
    topic.subscriptions.set(QUEUE_SUBSCRIPTION, subscription);
    this.queues.set(name.toLowerCase(), topic);
    this.#changed();
    return topic;
  }

  queue(name: string): { readonly topic: Topic; readonly subscription: Subscription } {
    const topic = this.queues.get(name.toLowerCase());
    if (!topic) throw entityNotFound(name);
    return { topic, subscription: topic.subscriptions.get(QUEUE_SUBSCRIPTION)! };
  }

  deleteQueue(name: string): void {
    const { topic, subscription } = this.queue(name);
    this.#releaseQueues(subscription);
    topic.dispose();
    this.queues.delete(name.toLowerCase());
    this.#changed();
  }

  /** The topic a sender on `address` sends to: a topic, or the sending side of a queue. */
  resolveForSend(address: string): Topic {
    const name = address.replace(/^\/+/, '');
    const queue = this.queues.get(name.toLowerCase());
    if (queue) return queue;
    const entity = this.resolve(name);
    if (entity.kind !== 'topic') {
      throw new BrokerError(Condition.invalidField, `send to a topic or a queue, not to '${address}'`);
    }
    return entity.topic;
  }

  #newEntity(kind: 'topic' | 'queue', name: string, properties: Partial<TopicProperties>): Topic {
    assertName(kind, name);
    const key = name.toLowerCase();
    if (this.topics.has(key) || this.queues.has(key)) {
      throw new BrokerError(Condition.entityAlreadyExists, `an entity named '${name}' already exists`);
    }
    const entities = this.topics.size + this.queues.size;
    if (entities >= this.quotas.maxEntities) {
      throw quotaExceeded(`the namespace has ${entities} topics and queues`, this.quotas.maxEntities);
    }
    const topic = new Topic(
      name,
      { ...DEFAULT_TOPIC, ...properties },
      this.budget,
      this.nextSequence,
      (sequence, error) =>
        this.options.log?.(
          `scheduled message ${sequence} on ${kind} ${name} could not be enqueued: ${error instanceof Error ? error.message : String(error)}`,
        ),
    );
    topic.forwarder = (from, message) => forward(this, from, message);
    return topic;
  }

  deleteTopic(name: string): void {
    const topic = this.topic(name);
    for (const subscription of topic.subscriptions.values()) this.#releaseQueues(subscription);
    topic.dispose();
    this.topics.delete(name.toLowerCase());
    this.#changed();
  }

  topic(name: string): Topic {
    const topic = this.topics.get(name.toLowerCase());
    if (!topic) throw entityNotFound(name);
    return topic;
  }

  createSubscription(
    topicName: string,
    name: string,
    properties: Partial<SubscriptionProperties> = {},
  ): Subscription {
    assertName('subscription', name);
    const topic = this.topic(topicName);
    if (topic.subscriptions.has(name.toLowerCase())) {
      throw new BrokerError(
        Condition.entityAlreadyExists,
        `subscription '${name}' already exists on topic '${topicName}'`,
      );
    }
    if (topic.subscriptions.size >= this.quotas.maxSubscriptionsPerTopic) {
      throw quotaExceeded(
        `topic '${topicName}' has ${topic.subscriptions.size} subscriptions`,
        this.quotas.maxSubscriptionsPerTopic,
      );
    }
    const subscription = new Subscription(
      topic.name,
      name,
      { ...DEFAULT_SUBSCRIPTION, ...properties },
      this.budget,
    );
    topic.subscriptions.set(name.toLowerCase(), subscription);
    topic.updatedAt = new Date();
    this.#changed();
    return subscription;
  }

  deleteSubscription(topicName: string, name: string): void {
    const subscription = this.subscription(topicName, name);
    this.#releaseQueues(subscription);
    this.topic(topicName).subscriptions.delete(name.toLowerCase());
    this.#changed();
  }

  subscription(topicName: string, name: string): Subscription {
    const subscription = this.topic(topicName).subscriptions.get(name.toLowerCase());
    if (!subscription) {
      throw entityNotFound(`${topicName}/Subscriptions/${name}`);
    }
    return subscription;
  }

  /** Tells the namespace a rule changed (the rule itself lives on its subscription). */
  ruleChanged(): void {
    this.#changed();
  }

  /** Resolves an AMQP address: `topic`, `topic/Subscriptions/sub` or `…/sub/$DeadLetterQueue`. */
  resolve(address: string): ResolvedEntity {
    const parts = address.replace(/^\/+/, '').split('/');
    const queueTopic = this.queues.get((parts[0] ?? '').toLowerCase());
    if (queueTopic) {
      const subscription = queueTopic.subscriptions.get(QUEUE_SUBSCRIPTION)!;
      if (parts.length === 1)
        return { kind: 'queue', topic: queueTopic, subscription, queue: subscription.queue };
      if (parts.length === 2 && parts[1]!.toLowerCase() === '$deadletterqueue') {
        return { kind: 'queue', topic: queueTopic, subscription, queue: subscription.deadLetter };
      }
    }
    const topic = this.topic(parts[0] ?? '');
    if (parts.length === 1) return { kind: 'topic', topic };
    if (parts.length >= 3 && parts[1]!.toLowerCase() === 'subscriptions') {
      const subscription = this.subscription(topic.name, parts[2]!);
      if (parts.length === 3) return { kind: 'queue', topic, subscription, queue: subscription.queue };
      if (parts.length === 4 && parts[3]!.toLowerCase() === '$deadletterqueue') {
        return { kind: 'queue', topic, subscription, queue: subscription.deadLetter };
      }
    }
    throw new BrokerError(Condition.notFound, `The messaging entity '${address}' could not be found.`);
  }

  dispose(): void {
    for (const topic of [...this.topics.values(), ...this.queues.values()]) topic.dispose();
  }

  #releaseQueues(subscription: Subscription): void {
    for (const queue of [subscription.queue, subscription.deadLetter]) {
      this.budget.release(queue.size, 0);
    }
  }

  #changed(): void {
    this.options.onTopologyChanged?.();
  }
}
