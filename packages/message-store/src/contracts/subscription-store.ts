import type { EndpointSubscription, SubscriptionAlertSettings } from '../entities/subscription.js';

/** What `subscribeToEndpointNotification` takes. */
export interface EndpointSubscriptionWrite {
  readonly endpointId: string;
  readonly mail: string;
  /** `mail`, `teams` or `mail;teams`. */
  readonly type: string;
  readonly author: string;
  readonly url: string;
  readonly eventTypes: readonly string[];
  readonly payload: string;
  readonly frequency: number;
  /** Kept as given (the WebApp's alert settings). */
  readonly alert?: SubscriptionAlertSettings | null;
}

/** A failure to match against subscriptions. */
export interface SubscriptionFailureQuery {
  readonly endpointId: string;
  readonly eventType: string;
  readonly payload: string;
  readonly errorText: string;
}

/** `unsubscribeById`: one subscription of one endpoint. */
export interface SubscriptionRef {
  readonly endpointId: string;
  readonly id: string;
}

/** `unsubscribeByMail`: every subscription of one endpoint with this mail. */
export interface SubscriptionMailRef {
  readonly endpointId: string;
  readonly mail: string;
}

/** Operator notification subscriptions per endpoint. */
export interface SubscriptionStore {
  /** Creates a subscription with a fresh id and returns it. Refuses a reserved endpoint id. */
  subscribeToEndpointNotification(subscription: EndpointSubscriptionWrite): Promise<EndpointSubscription>;
  getSubscriptionsOnEndpoint(endpointId: string): Promise<EndpointSubscription[]>;
  /**
   * Subscriptions that want this failure: (the event type is listed, or the list is empty) and
   * (the subscription's payload is empty, or a substring of `payload` or of `errorText`).
   */
  getSubscriptionsOnEndpointWithEventtype(query: SubscriptionFailureQuery): Promise<EndpointSubscription[]>;
  /**
   * Replaces mail, type, url, event types, payload, frequency and (when the update has the field) the alert
   * settings by id; false for an unknown id.
   */
  updateSubscription(subscription: EndpointSubscription): Promise<boolean>;
  /** Deletes the subscription when both id and endpoint match. */
  unsubscribeById(ref: SubscriptionRef): Promise<boolean>;
  /** Deletes every subscription on the endpoint with exactly this mail. */
  unsubscribeByMail(ref: SubscriptionMailRef): Promise<boolean>;
  deleteSubscription(subscriptionId: string): Promise<boolean>;
}
