import type { Namespace } from '../broker/namespace.js';
import { notImplemented } from '../wire/errors.js';
import { type AdminRequest, type AdminResponse, ok } from './admin-routes.js';
import { parseDescription, subscriptionProperties, topicProperties } from './atom-parse.js';
import { counts, entry, escapeXml, feed, isoDuration, times, ttlDuration } from './atom-render.js';

/** A PUT whose body describes a queue (the client sends a `QueueDescription`). */
export function isQueueCreate(method: string, body: string): boolean {
  return method === 'PUT' && body.includes('<QueueDescription');
}

export function queueEntry(base: string, namespace: Namespace, name: string): string {
  const { topic, subscription } = namespace.queue(name);
  const t = topic.properties;
  const p = subscription.properties;
  const active = subscription.queue.size;
  const dead = subscription.deadLetter.size;
  const body =
    `<LockDuration>${isoDuration(p.lockDurationMs)}</LockDuration><MaxSizeInMegabytes>1024</MaxSizeInMegabytes>` +
    `<RequiresDuplicateDetection>${t.requiresDuplicateDetection}</RequiresDuplicateDetection><RequiresSession>${p.requiresSession}</RequiresSession>` +
    `<DefaultMessageTimeToLive>${ttlDuration(Math.min(t.defaultMessageTtlMs, p.defaultMessageTtlMs))}</DefaultMessageTimeToLive>` +
    `<DeadLetteringOnMessageExpiration>${p.deadLetteringOnMessageExpiration}</DeadLetteringOnMessageExpiration>` +
    `<DuplicateDetectionHistoryTimeWindow>${isoDuration(t.duplicateDetectionWindowMs)}</DuplicateDetectionHistoryTimeWindow>` +
    `<MaxDeliveryCount>${p.maxDeliveryCount}</MaxDeliveryCount><EnableBatchedOperations>true</EnableBatchedOperations>` +
    `<SizeInBytes>${(active + dead) * 256}</SizeInBytes><MessageCount>${active + dead}</MessageCount>` +
    `<IsAnonymousAccessible>false</IsAnonymousAccessible><Status>Active</Status>` +
    `${p.forwardTo ? `<ForwardTo>${escapeXml(p.forwardTo)}</ForwardTo>` : ''}` +
    `${times(topic.createdAt, subscription.updatedAt)}<SupportOrdering>true</SupportOrdering>` +
    `${counts(active, dead, topic.scheduledCount)}<AutoDeleteOnIdle>P10675199DT2H48M5.4775807S</AutoDeleteOnIdle>` +
    `<EnablePartitioning>false</EnablePartitioning><EntityAvailabilityStatus>Available</EntityAvailabilityStatus>` +
    `<EnableExpress>false</EnableExpress><MaxMessageSizeInKilobytes>${Math.floor(namespace.maxMessageBytes(topic) / 1024)}</MaxMessageSizeInKilobytes>`;
  return entry(
    `${base}/${topic.name}?api-version=2021-05`,
    topic.name,
    subscription.updatedAt,
    'QueueDescription',
    body,
  );
}

/** GET, PUT (create) and DELETE of one queue. */
export async function queueRoute(
  namespace: Namespace,
  request: AdminRequest,
  base: string,
  name: string,
): Promise<AdminResponse> {
  const exists = namespace.queues.has(name.toLowerCase());
  switch (request.method) {
    case 'GET':
      return exists
        ? ok(queueEntry(base, namespace, name))
        : ok(feed(`${base}${request.url.pathname}`, 'Publicly Listed Services', []));
    case 'PUT': {
      const description = await parseDescription(request.body, 'QueueDescription');
      if (request.ifMatch === '*') throw notImplemented('updating a queue');
      const sending = topicProperties(description, namespace);
      const receiving = subscriptionProperties(description, namespace, name);
      namespace.createQueue(name, sending, receiving);
      return ok(queueEntry(base, namespace, name), 201);
    }
    case 'DELETE':
      namespace.deleteQueue(name);
      return { status: 200, body: '' };
    default:
      throw notImplemented(`${request.method} on a queue`);
  }
}
