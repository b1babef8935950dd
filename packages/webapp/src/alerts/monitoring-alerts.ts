import type { Transport } from '@nimbus/core';
import type { MetricsStore } from '@nimbus/message-store';
import { snapshotInputs } from '../monitoring/input-snapshot.js';
import { type AlertStore, AlertTrigger } from './alert-store.js';
import type { AlertSubscription } from './alert-subscriptions.js';

/** Monitoring alerts found in one evaluation, by endpoint id (lower case), in the evaluator's shape. */
export type MonitoringFound = {
  alert: {
    readonly key: string;
    readonly trigger: AlertTrigger;
    readonly endpointId: string;
    readonly summary: string;
    readonly details: Record<string, unknown>;
  };
  wants: (s: AlertSubscription) => boolean;
};

export interface MonitoringAlertDeps {
  readonly transport?: Pick<Transport, 'control' | 'counts' | 'name'>;
  readonly store: MetricsStore;
  readonly alertStore: AlertStore;
  readonly quietMs: number;
}

/** The window the critical-time threshold is judged over. */
const THRESHOLD_WINDOW_MS = 5 * 60_000;

/**
 * Inputs over a monitoring threshold (`MonitoringThreshold`) and unhealthy custom checks (`CustomCheckFailed`).
 * One alert per episode: its key carries when the condition was first seen (the alert store's signature
 * tracking), so a backlog that stays high, or a check that stays unhealthy, is raised once, and again only
 * after it was gone for the quiet period.
 */
export async function findMonitoringAlerts(
  deps: MonitoringAlertDeps,
  subscriptions: readonly AlertSubscription[],
  now: number,
): Promise<Map<string, MonitoringFound[]>> {
  const found = new Map<string, MonitoringFound[]>();
  const control = deps.transport?.control;
  if (!control) return found;
  const wants = (trigger: AlertTrigger) => subscriptions.some((s) => s.alert.triggers.includes(trigger));
  const add = (endpointId: string, f: MonitoringFound) =>
    found.set(endpointId.toLowerCase(), [...(found.get(endpointId.toLowerCase()) ?? []), f]);
  const episode = (endpointId: string, signature: string) =>
    deps.alertStore.touchSignature(endpointId, signature, now, deps.quietMs);

  if (wants(AlertTrigger.MonitoringThreshold)) {
    const watched = (await control.inputStates()).filter(
      (s) => s.maxBacklog !== null || s.maxCriticalTimeMs !== null,
    );
    const snapshots = await snapshotInputs({
      transport: deps.transport as Transport,
      store: deps.store,
      inputs: watched.map((s) => s.input),
      windowMs: THRESHOLD_WINDOW_MS,
      now,
    });
    for (const snap of snapshots)
      for (const breach of snap.breaches) {
        const kind = breach.split(' ')[0] ?? 'threshold';
        const since = await episode(snap.input, `threshold:${kind}`);
        add(snap.input, {
          alert: {
            key: `monitoring-threshold:${snap.input}:${kind}:${since}`,
            trigger: AlertTrigger.MonitoringThreshold,
            endpointId: snap.input,
            summary: `${snap.input} is over its monitoring threshold: ${breach}`,
            details: {
              breach,
              backlog: snap.backlog,
              criticalAvgMs: snap.criticalAvgMs,
              maxBacklog: snap.maxBacklog,
              maxCriticalTimeMs: snap.maxCriticalTimeMs,
              since: new Date(since).toISOString(),
            },
          },
          wants: () => true,
        });
      }
  }

  if (wants(AlertTrigger.CustomCheckFailed)) {
    for (const check of (await control.customChecks()).filter((c) => !c.healthy)) {
      const since = await episode(check.endpointId, `custom-check:${check.name}`);
      add(check.endpointId, {
        alert: {
          key: `custom-check:${check.endpointId}:${check.name}:${since}`,
          trigger: AlertTrigger.CustomCheckFailed,
          endpointId: check.endpointId,
          summary: `Custom check '${check.name}' of ${check.endpointId} is unhealthy: ${check.reason ?? 'no reason given'}`,
          details: {
            check: check.name,
            reason: check.reason,
            checkedAt: check.checkedAt.toISOString(),
            since: new Date(since).toISOString(),
          },
        },
        wants: () => true,
      });
    }
  }
  return found;
}
