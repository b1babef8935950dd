import { parseXML } from '@azure/core-xml';
import type { Untyped } from '../amqp/rhea.js';
import type { SubscriptionProperties } from '../broker/subscription.js';
import type { RuleDefinition, RuleFilter } from '../rules/rule.js';
import { BrokerError, Condition, notImplemented } from '../wire/errors.js';

type Xml = Record<string, Untyped>;

/** Milliseconds of an xs:duration such as `PT1M`, `PT30S`, `P1DT2H`. */
export function parseDuration(value: string): number {
  const match = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(value);
  if (!match) throw new BrokerError(Condition.invalidField, `invalid duration '${value}'`);
  const [, d, h, m, s] = match;
  return (
    ((Number(d ?? 0) * 24 + Number(h ?? 0)) * 60 + Number(m ?? 0)) * 60_000 +
    Math.round(Number(s ?? 0) * 1000)
  );
}

/** The description element of an Atom entry request body (`TopicDescription`, `SubscriptionDescription`, …). */
export async function parseDescription(body: string, name: string): Promise<Xml> {
  if (body.trim() === '') return {};
  let parsed: Xml;
  try {
    parsed = await parseXML(body, { includeRoot: true });
  } catch (error) {
    throw new BrokerError(Condition.invalidField, `the request body is not XML: ${(error as Error).message}`);
  }
  const description = parsed.entry?.content?.[name];
  if (description === undefined) {
    throw new BrokerError(
      Condition.invalidField,
      `the request body has no ${name} in its Atom entry content`,
    );
  }
  return typeof description === 'object' ? description : {};
}

/** The `xsi:type` of an element, whatever prefix the writer bound the schema-instance namespace to. */
function xsiType(element: Xml): string {
  const attributes = (element.$ ?? {}) as Record<string, unknown>;
  const key = Object.keys(attributes).find((name) => name.endsWith(':type'));
  return key ? String(attributes[key]) : '';
}

function text(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'object') return (value as Xml)._ !== undefined ? String((value as Xml)._) : undefined;
  return String(value);
}

function bool(value: unknown): boolean | undefined {
  const raw = text(value);
  return raw === undefined ? undefined : raw === 'true';
}

export function subscriptionProperties(description: Xml): Partial<SubscriptionProperties> {
  for (const unsupported of ['ForwardTo', 'ForwardDeadLetteredMessagesTo']) {
    if (text(description[unsupported])) throw notImplemented(`subscription ${unsupported}`);
  }
  const lock = text(description.LockDuration);
  const maxDelivery = text(description.MaxDeliveryCount);
  const requiresSession = bool(description.RequiresSession);
  return {
    ...(lock !== undefined ? { lockDurationMs: parseDuration(lock) } : {}),
    ...(maxDelivery !== undefined ? { maxDeliveryCount: Number(maxDelivery) } : {}),
    ...(requiresSession !== undefined ? { requiresSession } : {}),
  };
}

function propertyMap(properties: unknown): Record<string, string | number | boolean> | undefined {
  const pairs = (properties as Xml | undefined)?.KeyValueOfstringanyType;
  if (!pairs) return undefined;
  const result: Record<string, string | number | boolean> = {};
  for (const pair of Array.isArray(pairs) ? pairs : [pairs]) {
    const raw = text(pair.Value) ?? '';
    const type = xsiType(pair.Value ?? {})
      .split(':')
      .pop();
    result[String(pair.Key)] =
      type === 'int' || type === 'double' || type === 'long'
        ? Number(raw)
        : type === 'boolean'
          ? raw === 'true'
          : raw;
  }
  return result;
}

function filterOf(filter: Xml | undefined): RuleFilter {
  if (!filter) return { type: 'sql', expression: '1=1' };
  const type = xsiType(filter);
  if (type === 'SqlFilter' || type === 'TrueFilter' || type === 'FalseFilter') {
    const expression = text(filter.SqlExpression) ?? (type === 'FalseFilter' ? '1=0' : '1=1');
    return { type: 'sql', expression };
  }
  if (type === 'CorrelationFilter') {
    const field = (name: string) => text(filter[name]);
    return {
      type: 'correlation',
      correlationId: field('CorrelationId'),
      messageId: field('MessageId'),
      to: field('To'),
      replyTo: field('ReplyTo'),
      subject: field('Label'),
      sessionId: field('SessionId'),
      replyToSessionId: field('ReplyToSessionId'),
      contentType: field('ContentType'),
      properties: propertyMap(filter.Properties),
    };
  }
  throw notImplemented(`rule filter type '${type}'`);
}

export function ruleDefinition(name: string, description: Xml): RuleDefinition {
  const action = description.Action as Xml | undefined;
  const actionType = action ? xsiType(action) || 'EmptyRuleAction' : 'EmptyRuleAction';
  if (actionType !== 'SqlRuleAction' && actionType !== 'EmptyRuleAction')
    throw notImplemented(`rule action type '${actionType}'`);
  if (description.Filter?.Parameters || action?.Parameters) throw notImplemented('SQL rule parameters');
  return {
    name,
    filter: filterOf(description.Filter),
    action: actionType === 'SqlRuleAction' ? (text(action?.SqlExpression) ?? null) : null,
  };
}
