import { type Clock, uuidv7 } from '@nimbus/core';
import { type HeartbeatHistoryStore, type NimBusMessageStore, ResolutionStatus } from '@nimbus/message-store';
import type { EndpointCatalog } from '../app/endpoint-catalog.js';
import { effectiveHeartbeatStatus } from '../operator/heartbeat-freshness.js';
import { type AlertStore, AlertTrigger } from './alert-store.js';
import { type AlertSubscription, listAlertSubscriptions, wantsFailure } from './alert-subscriptions.js';
import { findMonitoringAlerts, type MonitoringAlertDeps } from './monitoring-alerts.js';

/** What blocks a session: the rows the operator has to resubmit or skip. */
const BLOCKING = [ResolutionStatus.Failed, ResolutionStatus.DeadLettered, ResolutionStatus.Unsupported];

type Found = { alert: FoundAlert; wants: (s: AlertSubscription) => boolean };

/** An alert found this tick, before it is claimed for a subscription. */
interface FoundAlert {
  readonly key: string;
  readonly trigger: AlertTrigger;
  readonly endpointId: string;
  readonly summary: string;
  readonly details: Record<string, unknown>;
}

export interface AlertEvaluatorDeps {
  readonly store: NimBusMessageStore & Partial<HeartbeatHistoryStore>;
  readonly catalog: EndpointCatalog;
  readonly alertStore: AlertStore;
  readonly clock: Clock;
  /** A failure signature absent this long is new again when it comes back. */
  readonly quietMs: number;
  /** Where monitoring thresholds and custom checks are read (`Transport.control`); absent: no such alerts. */
  readonly transport?: MonitoringAlertDeps['transport'];
}

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
  };
}

/**
 * Finds what the subscriptions want to hear of and claims one delivery per (subscription, alert) in the alert
 * store. Every instance may run it: the claim is unique in the store, so an alert is raised once.
 */
export class AlertEvaluator {
  constructor(private readonly deps: AlertEvaluatorDeps) {}

  /** Returns how many deliveries this call claimed. */
  async evaluate(): Promise<number> {
    const { store, catalog, clock } = this.deps;
    const now = clock.now();
    const subscriptions = await listAlertSubscriptions(store, catalog);
    // Signatures are tracked whether or not anyone subscribes, so "new" means new to the platform.
    const groups = await this.failureGroups(now);
    let claimed = 0;
    const byEndpoint = new Map<string, AlertSubscription[]>();
    for (const s of subscriptions) byEndpoint.set(s.endpointId, [...(byEndpoint.get(s.endpointId) ?? []), s]);
    const wanted = (subs: AlertSubscription[], trigger: AlertTrigger) =>
      subs.some((s) => s.alert.triggers.includes(trigger));
    const heartbeats = subscriptions.some((s) => s.alert.triggers.includes(AlertTrigger.HeartbeatLost))
      ? await this.heartbeats()
      : null;
    const monitoring = await findMonitoringAlerts(this.deps, subscriptions, now);
    for (const [endpointId, subs] of byEndpoint) {
      const found: Found[] = groups.filter((g) => g.alert.endpointId === endpointId);
      found.push(...(monitoring.get(endpointId.toLowerCase()) ?? []));
      if (wanted(subs, AlertTrigger.SessionBlocked))
        found.push(...(await this.blockedSessions(endpointId, now)));
      if (heartbeats) found.push(...this.heartbeatLost(heartbeats, endpointId, now));
      for (const { alert, wants } of found)
        for (const s of subs)
          if (s.alert.triggers.includes(alert.trigger) && wants(s) && (await this.claim(s, alert, now)))
            claimed++;
    }
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

  private async failureGroups(now: number): Promise<Found[]> {
    const groups = await this.deps.store.getFailureGroups({});
    const found: Found[] = [];
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
        alert: {
          key: `failure-group:${endpointId}:${g.signature}:${since}`,
          trigger: AlertTrigger.NewFailureGroup,
          endpointId,
          summary: `New failure group on ${endpointId}: ${g.errorType}: ${g.normalisedMessage} (${g.eventCount} events in ${g.sessionCount} sessions)`,
          details: {
            signature: g.signature,
            errorType: g.errorType,
            normalisedMessage: g.normalisedMessage,
            exampleErrorText: g.exampleErrorText,
            eventCount: g.eventCount,
            sessionCount: g.sessionCount,
            eventTypeIds: g.eventTypeIds,
            firstSeen: g.firstSeen.toISOString(),
          },
        },
        // Only subscriptions that existed when the group appeared: an old group is not news to a new one.
        wants: (s) =>
          Date.parse(s.alert.createdAt) <= since &&
          wantsFailure(s, g.eventTypeIds, `${g.exampleErrorText ?? ''}\n${g.signature}`),
      });
    }
    return found;
  }

  private async blockedSessions(endpointId: string, now: number): Promise<Found[]> {
    const rows = await this.deps.store.getEventsByFilter({
      filter: { endpointId, resolutionStatus: BLOCKING },
      continuationToken: null,
      maxItems: 500,
    });
    const bySession = new Map<string, (typeof rows.events)[number]>();
    for (const row of rows.events)
      if (row.endpointId.toLowerCase() === endpointId.toLowerCase() && !bySession.has(row.sessionId))
        bySession.set(row.sessionId, row);
    return [...bySession.values()].map((row) => {
      const blockedForMs = now - row.updatedAt.getTime();
      const errorText = row.messageContent.errorContent?.errorText ?? row.deadLetterErrorDescription ?? '';
      return {
        alert: {
          key: `session-blocked:${endpointId}:${row.sessionId}:${row.eventId}`,
          trigger: AlertTrigger.SessionBlocked,
          endpointId,
          summary: `Session '${row.sessionId}' on ${endpointId} is blocked by event '${row.eventId}' (${row.resolutionStatus}) for ${Math.floor(blockedForMs / 60_000)} min: ${errorText}`,
          details: {
            sessionId: row.sessionId,
            blockingEventId: row.eventId,
            blockingStatus: row.resolutionStatus,
            eventTypeId: row.eventTypeId,
            errorText,
            blockedSince: row.updatedAt.toISOString(),
          },
        },
        wants: (s: AlertSubscription) =>
          blockedForMs >= s.alert.blockedMinutes * 60_000 && wantsFailure(s, [row.eventTypeId], errorText),
      };
    });
  }

  private async heartbeats() {
    const settings = await this.deps.store.getHeartbeatSettings();
    return { settings, rows: await this.deps.store.getHeartbeatOverview() };
  }

  private heartbeatLost(
    { settings, rows }: Awaited<ReturnType<AlertEvaluator['heartbeats']>>,
    endpointId: string,
    now: number,
  ): Found[] {
    const row = rows.find((r) => r.endpointId.toLowerCase() === endpointId.toLowerCase());
    if (!row || !settings.enabled) return [];
    const status = effectiveHeartbeatStatus(row.status, row.lastEndTime, settings, now);
    if (status !== 'Off') return [];
    const lastSeen = row.lastEndTime?.toISOString() ?? null;
    return [
      {
        alert: {
          key: `heartbeat-lost:${endpointId}:${lastSeen ?? 'never'}`,
          trigger: AlertTrigger.HeartbeatLost,
          endpointId,
          summary: `Heartbeat of ${endpointId} lost: last answer ${lastSeen ?? 'never'}`,
          details: { status, reportedStatus: row.status, lastSeen },
        },
        wants: () => true,
      },
    ];
  }
}
