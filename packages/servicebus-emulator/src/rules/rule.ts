import type { AmqpMessage } from '../broker/message.js';
import { BrokerError, Condition } from '../wire/errors.js';
import type { ActionStatement, Predicate } from './sql-ast.js';
import { applyAction, matches } from './sql-eval.js';
import { parseAction, parseFilter } from './sql-parser.js';

export interface CorrelationFilter {
  readonly type: 'correlation';
  readonly correlationId?: string;
  readonly messageId?: string;
  readonly to?: string;
  readonly replyTo?: string;
  readonly subject?: string;
  readonly sessionId?: string;
  readonly replyToSessionId?: string;
  readonly contentType?: string;
  readonly properties?: Readonly<Record<string, string | number | boolean>>;
}

export type RuleFilter = { readonly type: 'sql'; readonly expression: string } | CorrelationFilter;

export interface RuleDefinition {
  readonly name: string;
  readonly filter: RuleFilter;
  readonly action?: string | null;
}

const CORRELATION_FIELDS: Record<string, keyof AmqpMessage> = {
  correlationId: 'correlation_id',
  messageId: 'message_id',
  to: 'to',
  replyTo: 'reply_to',
  subject: 'subject',
  sessionId: 'group_id',
  replyToSessionId: 'reply_to_group_id',
  contentType: 'content_type',
};

/** A compiled subscription rule: a filter that selects messages and an optional action that edits the copy. */
export class Rule {
  readonly #predicate: Predicate | null;
  readonly #action: readonly ActionStatement[] | null;
  readonly createdAt = new Date();

  constructor(readonly definition: RuleDefinition) {
    if (!/^[A-Za-z0-9$._-]{1,50}$/.test(definition.name)) {
      throw new BrokerError(Condition.invalidField, `invalid rule name '${definition.name}'`);
    }
    this.#predicate = definition.filter.type === 'sql' ? parseFilter(definition.filter.expression) : null;
    this.#action = definition.action ? parseAction(definition.action) : null;
  }

  get name(): string {
    return this.definition.name;
  }

  matches(message: AmqpMessage): boolean {
    const filter = this.definition.filter;
    if (filter.type === 'sql') return matches(message, this.#predicate!);
    for (const [key, field] of Object.entries(CORRELATION_FIELDS)) {
      const expected = filter[key as keyof CorrelationFilter];
      if (expected !== undefined && String(message[field] ?? '') !== expected) return false;
    }
    for (const [key, expected] of Object.entries(filter.properties ?? {})) {
      if (message.application_properties?.[key] !== expected) return false;
    }
    return true;
  }

  get hasAction(): boolean {
    return this.#action !== null;
  }

  apply(message: AmqpMessage): void {
    if (this.#action) applyAction(message, this.#action);
  }
}

export const DEFAULT_RULE: RuleDefinition = { name: '$Default', filter: { type: 'sql', expression: '1=1' } };
