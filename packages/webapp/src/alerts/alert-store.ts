import { type AlertThreadStore, createMemoryThreadStore } from './alert-thread.js';

/** What fires an alert. */
export const AlertTrigger = {
  NewFailureGroup: 'NewFailureGroup',
  SessionBlocked: 'SessionBlocked',
  HeartbeatLost: 'HeartbeatLost',
  /** An input is over a monitoring threshold (backlog or critical time). */
  MonitoringThreshold: 'MonitoringThreshold',
  /** A custom check an endpoint's host runs reports unhealthy. */
  CustomCheckFailed: 'CustomCheckFailed',
  /** Sent on request from the UI to check a subscription's target. */
  Test: 'Test',
} as const;
export type AlertTrigger = (typeof AlertTrigger)[keyof typeof AlertTrigger];

export type DeliveryStatus = 'Pending' | 'Retrying' | 'Delivered' | 'Failed';

/** One alert for one subscription, delivered (and retried) until it succeeds or runs out of attempts. */
export interface AlertDelivery {
  readonly id: string;
  readonly subscriptionId: string;
  /** What the alert is about; unique per subscription, so an alert is raised once whoever finds it. */
  readonly alertKey: string;
  readonly trigger: AlertTrigger;
  readonly endpointId: string;
  /** The JSON body the receiver gets. */
  readonly payloadJson: string;
  readonly status: DeliveryStatus;
  readonly attempts: number;
  /** Epoch ms. */
  readonly nextAttemptAt: number;
  readonly lastError: string | null;
  readonly createdAt: number;
  readonly deliveredAt: number | null;
}

export interface DeliveryAttempt {
  readonly deliveryId: string;
  readonly attempt: number;
  readonly at: number;
  readonly ok: boolean;
  /** `HTTP 500`, a network error, an SMTP answer; null on success. */
  readonly error: string | null;
  readonly durationMs: number;
}

export type NewDelivery = Pick<
  AlertDelivery,
  'id' | 'subscriptionId' | 'alertKey' | 'trigger' | 'endpointId' | 'payloadJson' | 'createdAt'
>;

/**
 * The WebApp's alert state, shared by every instance (the SQL one beside the identity tables): which failure
 * signatures are known, and every delivery with its attempts. Claims are atomic in the store, so with several
 * instances each alert is raised and sent once.
 */
export interface AlertStore extends AlertThreadStore {
  initialize(): Promise<void>;
  /**
   * Marks the signature seen at `now` and returns when its current episode began: `now` when it is new or
   * was not seen for `quietMs`, else the episode's start. One atomic write per signature, so every instance
   * gets the same answer.
   */
  touchSignature(endpointId: string, signature: string, now: number, quietMs: number): Promise<number>;
  /** Inserts the delivery unless the subscription already has one for `alertKey`; true when this call did. */
  claimDelivery(delivery: NewDelivery): Promise<boolean>;
  /** Leases up to `limit` deliveries due at `now` to `owner` for `leaseMs`; each is leased by one caller. */
  leaseDue(owner: string, now: number, leaseMs: number, limit: number): Promise<AlertDelivery[]>;
  /** Records one attempt and the delivery's next state (and ends the lease). */
  recordAttempt(
    attempt: DeliveryAttempt,
    next: { status: DeliveryStatus; nextAttemptAt: number; deliveredAt: number | null },
  ): Promise<void>;
  /** The newest deliveries of a subscription, each with its attempts (oldest attempt first). */
  listDeliveries(
    subscriptionId: string,
    limit: number,
  ): Promise<{ delivery: AlertDelivery; attempts: DeliveryAttempt[] }[]>;
  /**
   * Forgets finished deliveries created before `before`, signatures last seen before it, resolved threads
   * resolved before it, and expired snoozes.
   */
  prune(before: number): Promise<void>;
  close(): Promise<void>;
}

export function createMemoryAlertStore(): AlertStore {
  const signatures = new Map<string, { firstSeen: number; lastSeen: number }>();
  const deliveries = new Map<string, AlertDelivery & { leaseUntil: number }>();
  const attempts: DeliveryAttempt[] = [];
  const threads = createMemoryThreadStore((subscriptionId) =>
    [...deliveries.values()].filter((d) => d.subscriptionId === subscriptionId),
  );
  return {
    ...threads,
    initialize: async () => {},
    touchSignature: async (endpointId, signature, now, quietMs) => {
      const key = `${endpointId}\u0000${signature}`;
      const seen = signatures.get(key);
      const firstSeen = !seen || seen.lastSeen < now - quietMs ? now : seen.firstSeen;
      signatures.set(key, { firstSeen, lastSeen: Math.max(now, seen?.lastSeen ?? now) });
      return firstSeen;
    },
    claimDelivery: async (delivery) => {
      for (const d of deliveries.values())
        if (d.subscriptionId === delivery.subscriptionId && d.alertKey === delivery.alertKey) return false;
      deliveries.set(delivery.id, {
        ...delivery,
        status: 'Pending',
        attempts: 0,
        nextAttemptAt: delivery.createdAt,
        lastError: null,
        deliveredAt: null,
        leaseUntil: 0,
      });
      return true;
    },
    leaseDue: async (_owner, now, leaseMs, limit) => {
      const due = [...deliveries.values()]
        .filter(
          (d) =>
            (d.status === 'Pending' || d.status === 'Retrying') &&
            d.nextAttemptAt <= now &&
            d.leaseUntil <= now,
        )
        .sort((a, b) => a.nextAttemptAt - b.nextAttemptAt)
        .slice(0, limit);
      for (const d of due) deliveries.set(d.id, { ...d, leaseUntil: now + leaseMs });
      return due.map(({ leaseUntil: _lease, ...d }) => d);
    },
    recordAttempt: async (attempt, next) => {
      attempts.push(attempt);
      const d = deliveries.get(attempt.deliveryId);
      if (!d) return;
      deliveries.set(d.id, {
        ...d,
        ...next,
        attempts: attempt.attempt,
        lastError: attempt.error,
        leaseUntil: 0,
      });
    },
    listDeliveries: async (subscriptionId, limit) =>
      [...deliveries.values()]
        .filter((d) => d.subscriptionId === subscriptionId)
        .sort((a, b) => b.createdAt - a.createdAt || b.id.localeCompare(a.id))
        .slice(0, limit)
        .map(({ leaseUntil: _lease, ...delivery }) => ({
          delivery,
          attempts: attempts
            .filter((a) => a.deliveryId === delivery.id)
            .sort((a, b) => a.attempt - b.attempt),
        })),
    prune: async (before) => {
      for (const [id, d] of deliveries)
        if ((d.status === 'Delivered' || d.status === 'Failed') && d.createdAt < before) {
          deliveries.delete(id);
          for (let i = attempts.length - 1; i >= 0; i--)
            if (attempts[i]!.deliveryId === id) attempts.splice(i, 1);
        }
      for (const [key, s] of signatures) if (s.lastSeen < before) signatures.delete(key);
      await threads.pruneThreads(before);
    },
    close: async () => {},
  };
}
