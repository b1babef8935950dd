import { NEVER_MS } from '../broker/entity-properties.js';
import type { Subscription } from '../broker/subscription.js';
import type { Topic } from '../broker/topic.js';
import type { Rule } from '../rules/rule.js';

// Atom entries and feeds in the shape ServiceBusAdministrationClient parses.

const SB_NS = 'http://schemas.microsoft.com/netservices/2010/10/servicebus/connect';
const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';

export function escapeXml(value: string): string {
  return value.replace(
    /[<>&'"]/g,
    (c) => `&${{ '<': 'lt', '>': 'gt', '&': 'amp', "'": 'apos', '"': 'quot' }[c]};`,
  );
}

/** A duration as xs:duration (`PT1M`, `PT0.5S`). */
export function isoDuration(ms: number): string {
  if (ms % 60_000 === 0) return `PT${ms / 60_000}M`;
  return `PT${ms / 1000}S`;
}

export function entry(
  id: string,
  title: string,
  updated: Date,
  descriptionName: string,
  body: string,
): string {
  return `<entry xmlns="http://www.w3.org/2005/Atom"><id>${escapeXml(id)}</id><title type="text">${escapeXml(title)}</title><published>${updated.toISOString()}</published><updated>${updated.toISOString()}</updated><link rel="self" href="${escapeXml(id)}"/><content type="application/xml"><${descriptionName} xmlns="${SB_NS}" xmlns:i="${XSI_NS}">${body}</${descriptionName}></content></entry>`;
}

export function feed(id: string, title: string, entries: readonly string[]): string {
  return `<feed xmlns="http://www.w3.org/2005/Atom"><title type="text">${escapeXml(title)}</title><id>${escapeXml(id)}</id><updated>${new Date().toISOString()}</updated>${entries.join('')}</feed>`;
}

export function document(xml: string): string {
  return `<?xml version="1.0" encoding="utf-8"?>${xml}`;
}

export function counts(active: number, deadLetter: number, scheduled: number): string {
  const d = 'd2p1';
  return `<CountDetails xmlns:${d}="http://schemas.microsoft.com/netservices/2011/06/servicebus"><${d}:ActiveMessageCount>${active}</${d}:ActiveMessageCount><${d}:DeadLetterMessageCount>${deadLetter}</${d}:DeadLetterMessageCount><${d}:ScheduledMessageCount>${scheduled}</${d}:ScheduledMessageCount><${d}:TransferMessageCount>0</${d}:TransferMessageCount><${d}:TransferDeadLetterMessageCount>0</${d}:TransferDeadLetterMessageCount></CountDetails>`;
}

export function times(created: Date, updated: Date): string {
  return `<CreatedAt>${created.toISOString()}</CreatedAt><UpdatedAt>${updated.toISOString()}</UpdatedAt><AccessedAt>${new Date().toISOString()}</AccessedAt>`;
}

/** An xs:duration, or TimeSpan.MaxValue's for "never". */
export function ttlDuration(ms: number): string {
  return ms >= NEVER_MS ? 'P10675199DT2H48M5.4775807S' : isoDuration(ms);
}

export function topicEntry(base: string, topic: Topic, maxMessageBytes: number): string {
  const p = topic.properties;
  const messages = [...topic.subscriptions.values()].reduce(
    (sum, s) => sum + s.queue.size + s.deadLetter.size,
    0,
  );
  const body =
    `<DefaultMessageTimeToLive>${ttlDuration(p.defaultMessageTtlMs)}</DefaultMessageTimeToLive><MaxSizeInMegabytes>1024</MaxSizeInMegabytes>` +
    `<RequiresDuplicateDetection>${p.requiresDuplicateDetection}</RequiresDuplicateDetection><DuplicateDetectionHistoryTimeWindow>${isoDuration(p.duplicateDetectionWindowMs)}</DuplicateDetectionHistoryTimeWindow>` +
    `<EnableBatchedOperations>true</EnableBatchedOperations><SizeInBytes>${messages * 256}</SizeInBytes>` +
    `<IsAnonymousAccessible>false</IsAnonymousAccessible><Status>Active</Status>${times(topic.createdAt, topic.updatedAt)}` +
    `<SupportOrdering>true</SupportOrdering>${counts(0, 0, topic.scheduledCount)}<SubscriptionCount>${topic.subscriptions.size}</SubscriptionCount>` +
    `<AutoDeleteOnIdle>P10675199DT2H48M5.4775807S</AutoDeleteOnIdle><EnablePartitioning>false</EnablePartitioning>` +
    `<EntityAvailabilityStatus>Available</EntityAvailabilityStatus><EnableExpress>false</EnableExpress><MaxMessageSizeInKilobytes>${Math.floor(maxMessageBytes / 1024)}</MaxMessageSizeInKilobytes>`;
  return entry(
    `${base}/${topic.name}?api-version=2021-05`,
    topic.name,
    topic.updatedAt,
    'TopicDescription',
    body,
  );
}

export function subscriptionEntry(base: string, subscription: Subscription): string {
  const p = subscription.properties;
  const active = subscription.queue.size;
  const dead = subscription.deadLetter.size;
  const body =
    `<LockDuration>${isoDuration(p.lockDurationMs)}</LockDuration><RequiresSession>${p.requiresSession}</RequiresSession>` +
    `<DefaultMessageTimeToLive>${ttlDuration(p.defaultMessageTtlMs)}</DefaultMessageTimeToLive><DeadLetteringOnMessageExpiration>${p.deadLetteringOnMessageExpiration}</DeadLetteringOnMessageExpiration>` +
    `<DeadLetteringOnFilterEvaluationExceptions>true</DeadLetteringOnFilterEvaluationExceptions><MessageCount>${active + dead}</MessageCount>` +
    `<MaxDeliveryCount>${p.maxDeliveryCount}</MaxDeliveryCount><EnableBatchedOperations>true</EnableBatchedOperations><Status>Active</Status>` +
    `${times(subscription.createdAt, subscription.updatedAt)}${counts(active, dead, 0)}` +
    `${p.forwardTo ? `<ForwardTo>${escapeXml(p.forwardTo)}</ForwardTo>` : ''}` +
    `<AutoDeleteOnIdle>P10675199DT2H48M5.4775807S</AutoDeleteOnIdle><EntityAvailabilityStatus>Available</EntityAvailabilityStatus>`;
  const path = `${subscription.topicName}/Subscriptions/${subscription.name}`;
  return entry(
    `${base}/${path}?api-version=2021-05`,
    subscription.name,
    subscription.updatedAt,
    'SubscriptionDescription',
    body,
  );
}

function propertyValue(value: string | number | boolean): string {
  const type =
    typeof value === 'number'
      ? Number.isInteger(value)
        ? 'int'
        : 'double'
      : typeof value === 'boolean'
        ? 'boolean'
        : 'string';
  return `<Value i:type="d6p1:${type}" xmlns:d6p1="http://www.w3.org/2001/XMLSchema">${escapeXml(String(value))}</Value>`;
}

function filterXml(rule: Rule): string {
  const filter = rule.definition.filter;
  if (filter.type === 'sql') {
    return `<Filter i:type="SqlFilter"><SqlExpression>${escapeXml(filter.expression)}</SqlExpression><CompatibilityLevel>20</CompatibilityLevel></Filter>`;
  }
  const fields: [string, string | undefined][] = [
    ['CorrelationId', filter.correlationId],
    ['MessageId', filter.messageId],
    ['To', filter.to],
    ['ReplyTo', filter.replyTo],
    ['Label', filter.subject],
    ['SessionId', filter.sessionId],
    ['ReplyToSessionId', filter.replyToSessionId],
    ['ContentType', filter.contentType],
  ];
  const simple = fields
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `<${name}>${escapeXml(value!)}</${name}>`)
    .join('');
  const properties = Object.entries(filter.properties ?? {})
    .map(
      ([key, value]) =>
        `<KeyValueOfstringanyType><Key>${escapeXml(key)}</Key>${propertyValue(value)}</KeyValueOfstringanyType>`,
    )
    .join('');
  return `<Filter i:type="CorrelationFilter">${simple}<Properties>${properties}</Properties></Filter>`;
}

export function ruleEntry(base: string, subscription: Subscription, rule: Rule): string {
  const action = rule.definition.action
    ? `<Action i:type="SqlRuleAction"><SqlExpression>${escapeXml(rule.definition.action)}</SqlExpression><CompatibilityLevel>20</CompatibilityLevel></Action>`
    : `<Action i:type="EmptyRuleAction"/>`;
  const body = `${filterXml(rule)}${action}<CreatedAt>${rule.createdAt.toISOString()}</CreatedAt><Name>${escapeXml(rule.name)}</Name>`;
  const path = `${subscription.topicName}/Subscriptions/${subscription.name}/Rules/${rule.name}`;
  return entry(`${base}/${path}?api-version=2021-05`, rule.name, rule.createdAt, 'RuleDescription', body);
}
