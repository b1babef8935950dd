import { randomUUID } from 'node:crypto';
import type { EndpointSubscriptionWrite, SubscriptionFailureQuery } from './contracts/subscription-store.js';
import type { EndpointSubscription } from './entities/subscription.js';

/**
 * What `subscribeToEndpointNotification` stores for its arguments: a subscription with a fresh id
 * that has not notified anyone yet.
 */
export function newEndpointSubscription(write: EndpointSubscriptionWrite): EndpointSubscription {
  const { endpointId, mail, type, author, url, eventTypes, payload, frequency, alert } = write;
  return {
    id: randomUUID(),
    endpointId,
    type,
    mail,
    authorId: author,
    url,
    eventTypes: [...eventTypes],
    payload,
    frequency,
    notificationSeverity: null,
    notifiedAt: null,
    errorList: null,
    alert: alert ? { ...alert, triggers: [...alert.triggers] } : null,
  };
}

/** `stored` with the fields `updateSubscription` may change taken from `update`; the rest is kept. */
export function withSubscriptionUpdate(
  stored: EndpointSubscription,
  update: EndpointSubscription,
): EndpointSubscription {
  return {
    ...stored,
    mail: update.mail,
    type: update.type,
    url: update.url,
    eventTypes: [...update.eventTypes],
    payload: update.payload,
    frequency: update.frequency,
    alert: update.alert === undefined ? (stored.alert ?? null) : update.alert,
  };
}

/**
 * The subscriptions that want to hear of this failure: their event types list the type (or are empty), and
 * their payload filter is empty or found in the event payload or in the error text.
 */
export function subscriptionsWantingFailure(
  subscriptions: readonly EndpointSubscription[],
  { eventType, payload, errorText }: Omit<SubscriptionFailureQuery, 'endpointId'>,
): EndpointSubscription[] {
  return subscriptions.filter(
    (subscription) =>
      (subscription.eventTypes.length === 0 || subscription.eventTypes.includes(eventType)) &&
      (subscription.payload === '' ||
        payload.includes(subscription.payload) ||
        errorText.includes(subscription.payload)),
  );
}
