/** An operator's notification subscription on an endpoint (unrelated to transport subscriptions). */
export interface EndpointSubscription {
  readonly id: string;
  readonly endpointId: string;
  /** `mail`, `teams` or `mail;teams`. */
  readonly type: string;
  readonly mail: string;
  readonly authorId: string;
  readonly url: string;
  readonly eventTypes: readonly string[];
  readonly payload: string;
  readonly frequency: number;
  readonly notificationSeverity: string | null;
  readonly notifiedAt: string | null;
  readonly errorList: string | null;
}
