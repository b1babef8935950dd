import { DEFAULT_RULE, Rule, type RuleDefinition } from '../rules/rule.js';
import { BrokerError, Condition } from '../wire/errors.js';
import type { MemoryBudget } from './budget.js';
import { NEVER_MS } from './entity-properties.js';
import { type AmqpMessage, copyMessage } from './message.js';
import { Queue } from './queue.js';

export interface SubscriptionProperties {
  readonly requiresSession: boolean;
  readonly lockDurationMs: number;
  readonly maxDeliveryCount: number;
  readonly defaultMessageTtlMs: number;
  readonly deadLetteringOnMessageExpiration: boolean;
  /** Every message this subscription (or queue) takes is sent on to this topic or queue instead of kept. */
  readonly forwardTo: string | null;
}

export const DEFAULT_SUBSCRIPTION: SubscriptionProperties = {
  requiresSession: false,
  lockDurationMs: 60_000,
  maxDeliveryCount: 10,
  defaultMessageTtlMs: NEVER_MS,
  deadLetteringOnMessageExpiration: false,
  forwardTo: null,
};

/**
 * A topic subscription: its rules, its queue and the queue's dead-letter sub-queue. A queue entity is a
 * topic with one subscription whose `path` is the queue's name.
 */
export class Subscription {
  readonly rules = new Map<string, Rule>();
  readonly queue: Queue;
  readonly deadLetter: Queue;
  readonly createdAt = new Date();
  updatedAt = new Date();

  constructor(
    readonly topicName: string,
    readonly name: string,
    readonly properties: SubscriptionProperties,
    budget: MemoryBudget,
    rule: RuleDefinition = DEFAULT_RULE,
    path = `${topicName}/Subscriptions/${name}`,
  ) {
    this.deadLetter = new Queue({
      path: `${path}/$DeadLetterQueue`,
      requiresSession: false,
      lockDurationMs: properties.lockDurationMs,
      maxDeliveryCount: Number.MAX_SAFE_INTEGER,
      budget,
      deadLetter: null,
    });
    this.queue = new Queue({ path, ...properties, budget, deadLetter: this.deadLetter });
    this.addRule(rule);
  }

  addRule(definition: RuleDefinition): Rule {
    const key = definition.name.toLowerCase();
    if (this.rules.has(key)) {
      throw new BrokerError(
        Condition.entityAlreadyExists,
        `rule '${definition.name}' already exists on ${this.queue.path}`,
      );
    }
    const rule = new Rule(definition);
    this.rules.set(key, rule);
    this.updatedAt = new Date();
    return rule;
  }

  removeRule(name: string): void {
    if (!this.rules.delete(name.toLowerCase())) {
      throw new BrokerError(Condition.notFound, `rule '${name}' does not exist on ${this.queue.path}`);
    }
    this.updatedAt = new Date();
  }

  /**
   * The copies this subscription takes of `message`, as Service Bus documents it: every matching rule
   * without an action together gives one copy; every matching rule with an action gives a copy of its own,
   * with that action applied and the application property `RuleName` set to the rule's name.
   */
  select(message: AmqpMessage): AmqpMessage[] {
    const copies: AmqpMessage[] = [];
    let plain = false;
    for (const rule of this.rules.values()) {
      if (!rule.matches(message)) continue;
      if (!rule.hasAction) {
        if (!plain) copies.unshift(copyMessage(message));
        plain = true;
        continue;
      }
      const copy = copyMessage(message);
      rule.apply(copy);
      copy.application_properties = { ...copy.application_properties, RuleName: rule.name };
      copies.push(copy);
    }
    return copies;
  }
}
