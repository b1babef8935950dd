/**
 * One alert per cause and subscription: a failure group, the sessions blocked by one cause, an endpoint's
 * heartbeat outage, an input over a monitoring threshold, an unhealthy custom check. A thread is opened once (one delivery), updated when its counts change (at most once per
 * digest window), and resolved once when the cause is gone. Every delivery of a thread carries the thread's
 * key and a rising sequence number, so a receiver updates one incident instead of opening a new one.
 */
export interface AlertThread {
  readonly subscriptionId: string;
  /**
   * `failure-group:<endpoint>:<signature>`, `sessions-blocked:<endpoint>:<signature>`, `heartbeat-lost:<endpoint>`,
   * `monitoring-threshold:<input>:<backlog|critical…>`, `custom-check:<endpoint>:<check>`.
   */
  readonly threadKey: string;
  readonly endpointId: string;
  /** Deliveries sent for the thread so far (across its episodes); the next one is `sequence + 1`. */
  readonly sequence: number;
  /** Epoch ms: when the current episode was opened. */
  readonly openedAt: number;
  /** Epoch ms of the last delivery claimed for it. */
  readonly lastSentAt: number;
  /** The counts the last delivery reported (JSON); an update is due when they change. */
  readonly snapshotJson: string;
  /** Epoch ms when the cause was gone and the resolved notice claimed; null while open. */
  readonly resolvedAt: number | null;
}

/** A failure cause (endpoint + failure signature) silenced until `until`: its alerts wait, nothing is dropped. */
export interface AlertSnooze {
  readonly endpointId: string;
  readonly signature: string;
  /** Epoch ms. */
  readonly until: number;
  readonly by: string;
  readonly comment: string | null;
  readonly createdAt: number;
}

/** The part of the alert store that keeps threads, snoozes and the rate-limit window. */
export interface AlertThreadStore {
  /** Every thread (open ones, and resolved ones until pruned). */
  listThreads(): Promise<AlertThread[]>;
  /**
   * Writes `thread` when the stored one still has `expectedSequence` (0: none stored yet); false when another
   * instance moved it first. The claim of the delivery (unique on thread key + sequence) comes first.
   */
  saveThread(thread: AlertThread, expectedSequence: number): Promise<boolean>;
  /** Deliveries claimed for the subscription since `since` (epoch ms), tests excluded: the rate-limit window. */
  countDeliveriesSince(subscriptionId: string, since: number): Promise<number>;
  /** Creates or replaces the snooze of a cause. */
  snooze(snooze: AlertSnooze): Promise<void>;
  /** Ends a snooze early; false when there was none. */
  unsnooze(endpointId: string, signature: string): Promise<boolean>;
  /** Snoozes whose `until` is after `now`. */
  listSnoozes(now: number): Promise<AlertSnooze[]>;
  /** Forgets threads resolved before `before` and snoozes that ended before it. */
  pruneThreads(before: number): Promise<void>;
}

export const snoozeKey = (endpointId: string, signature: string) => `${endpointId}\u0000${signature}`;

/** The in-memory threads, snoozes and window count (one WebApp instance, tests). */
export function createMemoryThreadStore(
  deliveriesOf: (subscriptionId: string) => { createdAt: number; trigger: string }[],
): AlertThreadStore {
  const threads = new Map<string, AlertThread>();
  const snoozes = new Map<string, AlertSnooze>();
  const key = (t: Pick<AlertThread, 'subscriptionId' | 'threadKey'>) =>
    `${t.subscriptionId}\u0000${t.threadKey}`;
  return {
    listThreads: async () => [...threads.values()],
    saveThread: async (thread, expectedSequence) => {
      if ((threads.get(key(thread))?.sequence ?? 0) !== expectedSequence) return false;
      threads.set(key(thread), thread);
      return true;
    },
    countDeliveriesSince: async (subscriptionId, since) =>
      deliveriesOf(subscriptionId).filter((d) => d.createdAt >= since && d.trigger !== 'Test').length,
    snooze: async (s) => {
      snoozes.set(snoozeKey(s.endpointId, s.signature), s);
    },
    unsnooze: async (endpointId, signature) => snoozes.delete(snoozeKey(endpointId, signature)),
    listSnoozes: async (now) => [...snoozes.values()].filter((s) => s.until > now),
    pruneThreads: async (before) => {
      for (const [k, t] of threads) if (t.resolvedAt !== null && t.resolvedAt < before) threads.delete(k);
      for (const [k, s] of snoozes) if (s.until < before) snoozes.delete(k);
    },
  };
}
