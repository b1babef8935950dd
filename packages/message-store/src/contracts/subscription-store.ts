import type { EndpointSubscription } from '../entities/subscription.js';

/** Operator notification subscriptions per endpoint. */
export interface SubscriptionStore {
  /** Creates a subscription with a fresh id and returns it. */
  subscribeToEndpointNotification(
    endpointId: string,
    mail: string,
    type: string,
    author: string,
    url: string,
    eventTypes: readonly string[],
    payload: string,
    frequency: number,
  ): Promise<EndpointSubscription>;
  getSubscriptionsOnEndpoint(endpointId: string): Promise<EndpointSubscription[]>;
  /**
   * Subscriptions that want this failure: (the event type is listed, or the list is empty) and
   * (the subscription's payload is empty, or a substring of `payload` or of `errorText`).
   */
  getSubscriptionsOnEndpointWithEventtype(
    endpointId: string,
    eventType: string,
    payload: string,
    errorText: string,
  ): Promise<EndpointSubscription[]>;
  /** Replaces mail, type, url, event types, payload and frequency by id; false for an unknown id. */
  updateSubscription(subscription: EndpointSubscription): Promise<boolean>;
  /** Deletes the subscription when both id and endpoint match. */
  unsubscribeById(endpointId: string, id: string): Promise<boolean>;
  /** Deletes every subscription on the endpoint with exactly this mail. */
  unsubscribeByMail(endpointId: string, mail: string): Promise<boolean>;
  deleteSubscription(subscriptionId: string): Promise<boolean>;
}
