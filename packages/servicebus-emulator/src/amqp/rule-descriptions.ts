import type { Subscription } from '../broker/subscription.js';
import type { CorrelationFilter, RuleDefinition, RuleFilter } from '../rules/rule.js';
import { BrokerError, Condition } from '../wire/errors.js';
import { types, type Untyped } from './rhea.js';

/*
 * Rules over AMQP (`$management` enumerate-rules and add-rule): the described types of the Service Bus
 * AMQP request-response protocol.
 */

const CODE = {
  ruleDescription: 1335734829060,
  sqlFilter: 83483426822,
  trueFilter: 83483426823,
  falseFilter: 83483426824,
  correlationFilter: 83483426825,
  emptyRuleAction: 1335734829061,
  sqlRuleAction: 1335734829062,
} as const;

const described = (code: number, fields: unknown[]) =>
  types.described(types.wrap_ulong(code), types.wrap_list(fields));
const stringOrNull = (value: string | undefined) => (value === undefined ? null : types.wrap_string(value));

/** Correlation filter fields in the order of the described list (and their add-rule map keys). */
const CORRELATION_FIELDS = [
  ['correlationId', 'correlation-id'],
  ['messageId', 'message-id'],
  ['to', 'to'],
  ['replyTo', 'reply-to'],
  ['subject', 'label'],
  ['sessionId', 'session-id'],
  ['replyToSessionId', 'reply-to-session-id'],
  ['contentType', 'content-type'],
] as const satisfies readonly (readonly [keyof CorrelationFilter, string])[];

function filterDescription(filter: RuleFilter): unknown {
  if (filter.type === 'sql') {
    const expression = filter.expression.trim();
    if (expression === '1=1') return described(CODE.trueFilter, [types.wrap_string(expression)]);
    if (expression === '1=0') return described(CODE.falseFilter, [types.wrap_string(expression)]);
    return described(CODE.sqlFilter, [types.wrap_string(filter.expression), types.wrap_int(20)]);
  }
  const fields = CORRELATION_FIELDS.map(([key]) => stringOrNull(filter[key] as string | undefined));
  return described(CODE.correlationFilter, [...fields, types.wrap_map({ ...(filter.properties ?? {}) })]);
}

/** One entry of an enumerate-rules reply. */
function ruleEntry(definition: RuleDefinition, createdAt: Date): unknown {
  const action = definition.action
    ? described(CODE.sqlRuleAction, [types.wrap_string(definition.action), types.wrap_int(20)])
    : described(CODE.emptyRuleAction, []);
  return {
    'rule-description': described(CODE.ruleDescription, [
      filterDescription(definition.filter),
      action,
      types.wrap_string(definition.name),
      types.wrap_timestamp(createdAt.getTime()),
    ]),
  };
}

/** The reply body of `com.microsoft:enumerate-rules` (204 when the page is empty). */
export function enumerateRules(subscription: Subscription, skip: number, top: number) {
  const rules = [...subscription.rules.values()].slice(skip, skip + top);
  if (rules.length === 0) return { status: 204, body: {} };
  return { status: 200, body: { rules: rules.map((rule) => ruleEntry(rule.definition, rule.createdAt)) } };
}

function optionalString(map: Record<string, Untyped>, key: string): string | undefined {
  const value = map[key];
  return value === undefined || value === null ? undefined : String(value);
}

/** The rule an add-rule request describes: a SQL or a correlation filter, and an optional SQL action. */
export function addRuleDefinition(body: Record<string, Untyped>): RuleDefinition {
  const description = (body['rule-description'] ?? {}) as Record<string, Untyped>;
  const action = description['sql-rule-action']?.expression ?? null;
  const name = String(body['rule-name'] ?? '');
  const sql = description['sql-filter']?.expression;
  if (typeof sql === 'string') return { name, filter: { type: 'sql', expression: sql }, action };
  const correlation = description['correlation-filter'] as Record<string, Untyped> | undefined;
  if (correlation === undefined) {
    throw new BrokerError(Condition.invalidField, 'add-rule needs a sql-filter or a correlation-filter');
  }
  const filter: Record<string, unknown> = { type: 'correlation' };
  for (const [key, wire] of CORRELATION_FIELDS) {
    const value = optionalString(correlation, wire);
    if (value !== undefined) filter[key] = value;
  }
  const properties = correlation.properties;
  if (properties && typeof properties === 'object') filter.properties = { ...properties };
  return { name, filter: filter as unknown as CorrelationFilter, action };
}
