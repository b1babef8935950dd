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
  /**
   * The WebApp's alert settings (absent on subscriptions made before alerts, and on those made elsewhere).
   * The store keeps them as given and never interprets them.
   */
  readonly alert?: SubscriptionAlertSettings | null;
}

/** What the WebApp's alert evaluator watches for and how it signs webhook deliveries. */
export interface SubscriptionAlertSettings {
  /** `NewFailureGroup`, `SessionBlocked`, `HeartbeatLost`. */
  readonly triggers: readonly string[];
  /** `SessionBlocked` fires once a session has been blocked this long. */
  readonly blockedMinutes: number;
  /** The shared secret webhook bodies are signed with (HMAC-SHA256); null for e-mail. Never shown again. */
  readonly webhookSecret: string | null;
  /** ISO-8601; a new failure group alerts only the subscriptions that existed when it appeared. */
  readonly createdAt: string;
  /** Minutes between two updates of one alert (a failure group whose counts change); null: the WebApp's. */
  readonly digestMinutes?: number | null;
  /** Deliveries per hour at most; null: the WebApp's default. */
  readonly maxPerHour?: number | null;
}
