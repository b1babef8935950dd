import { type Clock, type Logger, uuidv7 } from '@nimbus/core';
import type { HeartbeatHistoryStore, NimBusMessageStore, UnresolvedEvent } from '@nimbus/message-store';
import type { EndpointCatalog } from '../app/endpoint-catalog.js';
import {
  type AlertCause,
  blockedSessionCauses,
  blockingRows,
  failureGroupCause,
  type HeartbeatView,
  heartbeatCause,
} from './alert-causes.js';
import { type AlertStore, AlertTrigger } from './alert-store.js';
import { type AlertSubscription, listAlertSubscriptions, wantsFailure } from './alert-subscriptions.js';
import { type AlertThread, snoozeKey } from './alert-thread.js';
import { findMonitoringCauses, type MonitoringAlertDeps } from './monitoring-alerts.js';

/** An alert found this round, before it is claimed for a subscription. */
export interface FoundAlert {
  readonly key: string;
  readonly trigger: AlertTrigger;
  readonly endpointId: string;
  readonly summary: string;
  readonly details: Record<string, unknown>;
  /** The thread the delivery belongs to: one per cause; `state` says what happened to it. */
  readonly thread?: { key: string; state: ThreadState; sequence: number; openedAt: string };
}

export type ThreadState = 'open' | 'update' | 'resolved';

export interface AlertEvaluatorDeps {
  readonly store: NimBusMessageStore & Partial<HeartbeatHistoryStore>;
  readonly catalog: EndpointCatalog;
  readonly alertStore: AlertStore;
  readonly clock: Clock;
  readonly logger?: Logger;
  /** A failure signature absent this long is new again when it comes back. */
  readonly quietMs: number;
  /** A thread's updates are sent at most once per this window (a subscription's `digestMinutes` wins). */
  readonly digestMs: number;
  /** Deliveries per subscription per hour, at most (a subscription's `maxPerHour` wins); the rest wait. */
  readonly maxPerHour: number;
  /** Where monitoring thresholds and custom checks are read (`Transport.control`); absent: no such alerts. */
  readonly transport?: MonitoringAlertDeps['transport'];
}

const HOUR = 3_600_000;

/** The body a receiver gets (webhook JSON, and the text of an e-mail). */
export function alertPayload(id: string, subscriptionId: string, found: FoundAlert, at: number) {
  return {
    id,
    trigger: found.trigger,
    subscriptionId,
    endpointId: found.endpointId,
    occurredAt: new Date(at).toISOString(),
    summary: found.summary,
    details: found.details,
    ...(found.thread ? { alert: found.thread } : {}),
  };
}

interface Stored {
  readonly headline: string;
  readonly countsText: string;
  readonly trigger: AlertTrigger;
  readonly counts: Readonly<Record<string, number>>;
  readonly details: Readonly<Record<string, unknown>>;
}

/**
 * Alerts per cause, not per session: every round finds the causes each subscription wants (failure groups,
 * sessions blocked by one cause, heartbeat outages, inputs over a monitoring threshold, unhealthy custom
 * checks) and moves one thread per (subscription, cause): opened
 * once, updated when its counts change (at most once per digest window), resolved once when the cause is
 * gone. Snoozed causes wait; a subscription over its hourly limit waits too (updates coalesce meanwhile).
 * Every delivery is claimed unique on (subscription, thread, sequence), so with several WebApp instances each
 * is raised once.
 */
export class AlertEvaluator {
  /** Deliveries held back by a subscription's rate limit in the last round. */
  heldByRateLimit = 0;

  constructor(private readonly deps: AlertEvaluatorDeps) {}

  /** Returns how many deliveries this call claimed. */
  async evaluate(): Promise<number> {
    const { store, catalog, clock, alertStore } = this.deps;
    const now = clock.now();
    const subscriptions = await listAlertSubscriptions(store, catalog);
    // Signatures are tracked whether or not anyone subscribes, so "new" means new to the platform.
    const groups = await this.failureGroups(now);
    const threads = new Map<string, AlertThread>();
    for (const t of await alertStore.listThreads()) threads.set(`${t.subscriptionId}\u0000${t.threadKey}`, t);
    const snoozed = new Set(
      (await alertStore.listSnoozes(now)).map((s) => snoozeKey(s.endpointId, s.signature)),
    );
    const wants = (s: AlertSubscription, t: AlertTrigger) => s.alert.triggers.includes(t);
    const heartbeats = subscriptions.some((s) => wants(s, AlertTrigger.HeartbeatLost))
      ? await this.heartbeats()
      : null;
    const blocked = new Map<string, Promise<UnresolvedEvent[]>>();
    const blockedOn = (endpointId: string) => {
      if (!blocked.has(endpointId)) blocked.set(endpointId, blockingRows(store, endpointId));
      return blocked.get(endpointId)!;
    };
    const monitoring = await findMonitoringCauses(this.deps, subscriptions, now);
    this.heldByRateLimit = 0;
    let claimed = 0;
    for (const s of subscriptions) {
      const causes: AlertCause[] = [];
      if (wants(s, AlertTrigger.NewFailureGroup))
        for (const g of groups) if (g.endpointId === s.endpointId && g.wants(s)) causes.push(g.cause);
      if (wants(s, AlertTrigger.SessionBlocked))
        causes.push(...blockedSessionCauses(await blockedOn(s.endpointId), s, s.endpointId, now));
      const heartbeat = heartbeats && heartbeatCause(heartbeats, s.endpointId, now);
      if (heartbeat && wants(s, AlertTrigger.HeartbeatLost)) causes.push(heartbeat);
      for (const cause of monitoring.get(s.endpointId.toLowerCase()) ?? [])
        if (wants(s, cause.trigger)) causes.push(cause);
      const isSnoozed = (signature: string | null) =>
        signature !== null && snoozed.has(snoozeKey(s.endpointId, signature));
      const present = new Set<string>();
      for (const cause of causes) {
        present.add(cause.threadKey);
        if (isSnoozed(cause.signature)) continue;
        const thread = threads.get(`${s.id}\u0000${cause.threadKey}`) ?? null;
        if (await this.step(s, thread, cause, now)) claimed++;
      }
      for (const thread of threads.values()) {
        if (thread.subscriptionId !== s.id || thread.resolvedAt !== null || present.has(thread.threadKey))
          continue;
        const stored = JSON.parse(thread.snapshotJson) as Stored;
        if (!wants(s, stored.trigger) || isSnoozed((stored.details.signature as string | undefined) ?? null))
          continue;
        if (await this.send(s, thread.threadKey, thread, 'resolved', stored, now)) claimed++;
      }
    }
    return claimed;
  }

  /** Opens the thread of a cause, or updates it when its counts changed and the digest window passed. */
  private async step(s: AlertSubscription, thread: AlertThread | null, cause: AlertCause, now: number) {
    const stored: Stored = {
      headline: cause.headline,
      countsText: cause.countsText,
      trigger: cause.trigger,
      counts: cause.counts,
      details: cause.details,
    };
    if (thread === null || thread.resolvedAt !== null)
      return this.send(s, cause.threadKey, thread, 'open', stored, now);
    const before = (JSON.parse(thread.snapshotJson) as Stored).counts;
    if (JSON.stringify(before) === JSON.stringify(cause.counts)) return false;
    const digestMs = s.alert.digestMinutes == null ? this.deps.digestMs : s.alert.digestMinutes * 60_000;
    if (now - thread.lastSentAt < digestMs) return false;
    return this.send(s, cause.threadKey, thread, 'update', stored, now);
  }

  private async send(
    s: AlertSubscription,
    key: string,
    thread: AlertThread | null,
    state: ThreadState,
    stored: Stored,
    now: number,
  ): Promise<boolean> {
    const { alertStore } = this.deps;
    const limit = s.alert.maxPerHour ?? this.deps.maxPerHour;
    if ((await alertStore.countDeliveriesSince(s.id, now - HOUR)) >= limit) {
      this.heldByRateLimit++;
      return false;
    }
    const openedAt = state === 'open' ? now : (thread?.openedAt ?? now);
    const sequence = (thread?.sequence ?? 0) + 1;
    const prefix = state === 'resolved' ? 'Resolved: ' : state === 'update' ? 'Update: ' : '';
    const claimed = await this.claim(
      s,
      {
        key: `${key}@${openedAt}#${sequence}`,
        trigger: stored.trigger,
        endpointId: s.endpointId,
        summary: `${prefix}${stored.headline} (${state === 'resolved' ? `was ${stored.countsText}` : stored.countsText})`,
        details: { ...stored.details },
        thread: { key, state, sequence, openedAt: new Date(openedAt).toISOString() },
      },
      now,
    );
    // Whoever claimed it, the thread moves once (a conditional write on the sequence it had).
    await alertStore.saveThread(
      {
        subscriptionId: s.id,
        threadKey: key,
        endpointId: s.endpointId,
        sequence,
        openedAt,
        lastSentAt: now,
        snapshotJson: JSON.stringify(stored),
        resolvedAt: state === 'resolved' ? now : null,
      },
      thread?.sequence ?? 0,
    );
    return claimed;
  }

  async claim(subscription: AlertSubscription, alert: FoundAlert, now: number): Promise<boolean> {
    const id = uuidv7(now);
    return this.deps.alertStore.claimDelivery({
      id,
      subscriptionId: subscription.id,
      alertKey: alert.key,
      trigger: alert.trigger,
      endpointId: alert.endpointId,
      payloadJson: JSON.stringify(alertPayload(id, subscription.id, alert, now)),
      createdAt: now,
    });
  }

  private async failureGroups(now: number) {
    const groups = await this.deps.store.getFailureGroups({});
    const found: { endpointId: string; cause: AlertCause; wants: (s: AlertSubscription) => boolean }[] = [];
    for (const g of groups) {
      const endpointId = g.endpointIds[0];
      if (!endpointId) continue;
      const since = await this.deps.alertStore.touchSignature(
        endpointId,
        g.signature,
        now,
        this.deps.quietMs,
      );
      found.push({
        endpointId,
        cause: failureGroupCause(g, endpointId),
        // Only subscriptions that existed when the group appeared: an old group is not news to a new one.
        wants: (s) =>
          Date.parse(s.alert.createdAt) <= since &&
          wantsFailure(s, g.eventTypeIds, `${g.exampleErrorText ?? ''}\n${g.signature}`),
      });
    }
    return found;
  }

  private async heartbeats(): Promise<HeartbeatView> {
    const { store } = this.deps;
    return { settings: await store.getHeartbeatSettings(), rows: await store.getHeartbeatOverview() };
  }
}
