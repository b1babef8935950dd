/** Durations Service Bus treats as "never" (TimeSpan.MaxValue): the default message time to live. */
export const NEVER_MS = 10_675_199 * 86_400_000;

/** When a message expires: the smaller of its own time to live and the entity's (Infinity: never). */
export function expiryOf(
  message: { readonly ttl?: number },
  enqueuedAt: number,
  entityTtlMs = NEVER_MS,
): number {
  const own = typeof message.ttl === 'number' && message.ttl > 0 ? message.ttl : NEVER_MS;
  const ttl = Math.min(own, entityTtlMs);
  return ttl >= NEVER_MS ? Number.POSITIVE_INFINITY : enqueuedAt + ttl;
}

/** Properties of a topic (and of a queue's sending side) that change how sends are handled. */
export interface TopicProperties {
  readonly requiresDuplicateDetection: boolean;
  /** How long a message id is remembered for duplicate detection (20 s – 7 days; default 10 min). */
  readonly duplicateDetectionWindowMs: number;
  readonly defaultMessageTtlMs: number;
  /** 0: the namespace's tier limit. */
  readonly maxMessageSizeBytes: number;
}

export const DEFAULT_TOPIC: TopicProperties = {
  requiresDuplicateDetection: false,
  duplicateDetectionWindowMs: 10 * 60_000,
  defaultMessageTtlMs: NEVER_MS,
  maxMessageSizeBytes: 0,
};

/** Bounds the management API enforces, as Service Bus documents them. */
export const PROPERTY_BOUNDS = {
  lockDurationMs: { min: 5_000, max: 5 * 60_000 },
  duplicateDetectionWindowMs: { min: 20_000, max: 7 * 86_400_000 },
  defaultMessageTtlMs: { min: 1_000, max: NEVER_MS },
} as const;

/**
 * Message ids seen within the duplicate detection window. A send whose id was seen is accepted and
 * dropped, as Service Bus does; ids are recorded only for sends that were accepted.
 */
export class DuplicateHistory {
  readonly #seen = new Map<string, number>();

  constructor(readonly windowMs: number) {}

  isDuplicate(id: string, now: number): boolean {
    const at = this.#seen.get(id);
    return at !== undefined && now - at < this.windowMs;
  }

  record(id: string, now: number): void {
    this.#seen.delete(id);
    this.#seen.set(id, now);
    // Insertion order is time order: drop the ids that left the window.
    for (const [oldest, at] of this.#seen) {
      if (now - at < this.windowMs) break;
      this.#seen.delete(oldest);
    }
  }
}
