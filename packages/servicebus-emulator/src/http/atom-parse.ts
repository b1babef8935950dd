import { parseXML } from '@azure/core-xml';
import type { Untyped } from '../amqp/rhea.js';
import { NEVER_MS, PROPERTY_BOUNDS, type TopicProperties } from '../broker/entity-properties.js';
import { assertDurationBetween, PREMIUM_MESSAGE_SIZE_KIB } from '../broker/limits.js';
import type { Namespace } from '../broker/namespace.js';
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

function durationMs(
  description: Xml,
  name: string,
  bounds: { min: number; max: number },
): number | undefined {
  const raw = text(description[name]);
  if (raw === undefined) return undefined;
  const ms = Math.min(parseDuration(raw), NEVER_MS);
  assertDurationBetween(name, ms, bounds.min, bounds.max);
  return ms;
}

/** `ForwardTo` names an existing topic or queue (given as a name or as the entity's URL). */
function forwardTarget(description: Xml, namespace: Namespace, self: string): string | undefined {
  const raw = text(description.ForwardTo);
  if (raw === undefined || raw === '') return undefined;
  const name = raw.replace(/^[a-z]+:\/\/[^/]+\//i, '').replace(/\/+$/, '');
  if (name.toLowerCase() === self.toLowerCase()) {
    throw new BrokerError(Condition.invalidField, `ForwardTo cannot name the entity itself ('${self}')`);
  }
  namespace.resolveForSend(name); // the target must exist: MessagingEntityNotFound otherwise
  return name;
}

export function subscriptionProperties(
  description: Xml,
  namespace: Namespace,
  self: string,
): Partial<SubscriptionProperties> {
  if (text(description.ForwardDeadLetteredMessagesTo)) throw notImplemented('ForwardDeadLetteredMessagesTo');
  const forwardTo = forwardTarget(description, namespace, self);
  const lockBounds = {
    min: namespace.options.minLockDurationMs ?? PROPERTY_BOUNDS.lockDurationMs.min,
    max: PROPERTY_BOUNDS.lockDurationMs.max,
  };
  const lock = durationMs(description, 'LockDuration', lockBounds);
  const ttl = durationMs(description, 'DefaultMessageTimeToLive', PROPERTY_BOUNDS.defaultMessageTtlMs);
  const maxDelivery = text(description.MaxDeliveryCount);
  if (maxDelivery !== undefined && !(Number.isInteger(Number(maxDelivery)) && Number(maxDelivery) >= 1)) {
    throw new BrokerError(Condition.invalidField, `MaxDeliveryCount must be at least 1, got ${maxDelivery}`);
  }
  const requiresSession = bool(description.RequiresSession);
  const deadLettering = bool(description.DeadLetteringOnMessageExpiration);
  return {
    ...(lock !== undefined ? { lockDurationMs: lock } : {}),
    ...(ttl !== undefined ? { defaultMessageTtlMs: ttl } : {}),
    ...(maxDelivery !== undefined ? { maxDeliveryCount: Number(maxDelivery) } : {}),
    ...(requiresSession !== undefined ? { requiresSession } : {}),
    ...(deadLettering !== undefined ? { deadLetteringOnMessageExpiration: deadLettering } : {}),
    ...(forwardTo !== undefined ? { forwardTo } : {}),
  };
}

/** A topic's description: duplicate detection, default time to live and (Premium) its message size. */
export function topicProperties(description: Xml, namespace: Namespace): Partial<TopicProperties> {
  const window = durationMs(
    description,
    'DuplicateDetectionHistoryTimeWindow',
    PROPERTY_BOUNDS.duplicateDetectionWindowMs,
  );
  const ttl = durationMs(description, 'DefaultMessageTimeToLive', PROPERTY_BOUNDS.defaultMessageTtlMs);
  const duplicates = bool(description.RequiresDuplicateDetection);
  const sizeKib = text(description.MaxMessageSizeInKilobytes);
  let maxMessageSizeBytes: number | undefined;
  if (sizeKib !== undefined) {
    const kib = Number(sizeKib);
    if (namespace.tier !== 'premium') {
      throw new BrokerError(
        Condition.invalidField,
        'MaxMessageSizeInKilobytes can only be set in the Premium tier',
      );
    }
    if (!Number.isInteger(kib) || kib < PREMIUM_MESSAGE_SIZE_KIB.min || kib > PREMIUM_MESSAGE_SIZE_KIB.max) {
      throw new BrokerError(
        Condition.invalidField,
        `MaxMessageSizeInKilobytes must be ${PREMIUM_MESSAGE_SIZE_KIB.min}-${PREMIUM_MESSAGE_SIZE_KIB.max}, got ${sizeKib}`,
      );
    }
    maxMessageSizeBytes = kib * 1024;
  }
  if (bool(description.EnablePartitioning)) throw notImplemented('partitioned entities (EnablePartitioning)');
  return {
    ...(duplicates !== undefined ? { requiresDuplicateDetection: duplicates } : {}),
    ...(window !== undefined ? { duplicateDetectionWindowMs: window } : {}),
    ...(ttl !== undefined ? { defaultMessageTtlMs: ttl } : {}),
    ...(maxMessageSizeBytes !== undefined ? { maxMessageSizeBytes } : {}),
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
