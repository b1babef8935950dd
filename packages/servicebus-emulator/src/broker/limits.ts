import { BrokerError, Condition } from '../wire/errors.js';

/*
 * The quotas Service Bus documents per tier ("Service Bus quotas"), which the emulator enforces. Any of
 * them can be lowered (or raised) per emulator with `EmulatorOptions.quotas`, for tests.
 */

export type Tier = 'standard' | 'premium';

export interface Quotas {
  /** Largest message (or batch transfer) a sender may send, in bytes. */
  readonly maxMessageBytes: number;
  /** Topics and queues together in the namespace. */
  readonly maxEntities: number;
  readonly maxSubscriptionsPerTopic: number;
  /** Concurrent AMQP connections to the namespace (the management API over https does not count). */
  readonly maxConnections: number;
}

const KIB = 1024;

export const TIER_QUOTAS: Record<Tier, Quotas> = {
  // Standard (and Basic): 256 KB messages, 10,000 topics and queues, 2,000 subscriptions, 5,000 AMQP connections.
  standard: {
    maxMessageBytes: 256 * KIB,
    maxEntities: 10_000,
    maxSubscriptionsPerTopic: 2_000,
    maxConnections: 5_000,
  },
  // Premium, one messaging unit: 1 MB by default (an entity may raise it to 100 MB), 1,000 topics and queues.
  premium: {
    maxMessageBytes: 1024 * KIB,
    maxEntities: 1_000,
    maxSubscriptionsPerTopic: 2_000,
    maxConnections: 5_000,
  },
};

/** Premium entities may set `MaxMessageSizeInKilobytes` in this range. */
export const PREMIUM_MESSAGE_SIZE_KIB = { min: 1024, max: 102_400 } as const;

export function resolveQuotas(tier: Tier = 'standard', overrides: Partial<Quotas> = {}): Quotas {
  if (tier !== 'standard' && tier !== 'premium') {
    throw new RangeError(`tier must be 'standard' or 'premium', got '${String(tier)}'`);
  }
  const quotas = { ...TIER_QUOTAS[tier], ...overrides };
  for (const [name, value] of Object.entries(quotas)) {
    if (!Number.isInteger(value) || value < 1)
      throw new RangeError(`quota ${name} must be a positive integer, got ${String(value)}`);
  }
  return quotas;
}

export function quotaExceeded(what: string, limit: number): BrokerError {
  return new BrokerError(Condition.quotaExceeded, `${what}: the quota is ${limit} (QuotaExceeded)`);
}

/** Durations the management API accepts for an entity property, in milliseconds. */
export function assertDurationBetween(name: string, ms: number, min: number, max: number): void {
  if (ms < min || ms > max) {
    throw new BrokerError(
      Condition.invalidField,
      `${name} must be between ${min / 1000} s and ${max / 1000} s, got ${ms / 1000} s`,
    );
  }
}
