import type { Transport } from '@nimbus/core';
import type { MetricsStore } from '@nimbus/message-store';
import { snapshotInputs } from '../monitoring/input-snapshot.js';
import type { AlertCause } from './alert-causes.js';
import { AlertTrigger } from './alert-store.js';
import type { AlertSubscription } from './alert-subscriptions.js';

export interface MonitoringAlertDeps {
  readonly transport?: Pick<Transport, 'control' | 'counts' | 'name'>;
  readonly store: MetricsStore;
}

/** The window the critical-time threshold is judged over. */
const THRESHOLD_WINDOW_MS = 5 * 60_000;

/**
 * Inputs over a monitoring threshold (`MonitoringThreshold`) and unhealthy custom checks (`CustomCheckFailed`),
 * by endpoint id (lower case), as alert causes: like a heartbeat outage, one thread per condition (no counts,
 * so no updates) that the evaluator opens once while the condition lasts and resolves once when it is gone, so
 * a backlog that stays high, or a check that stays unhealthy, sends one alert and one resolved notice.
 */
export async function findMonitoringCauses(
  deps: MonitoringAlertDeps,
  subscriptions: readonly AlertSubscription[],
  now: number,
): Promise<Map<string, AlertCause[]>> {
  const found = new Map<string, AlertCause[]>();
  const control = deps.transport?.control;
  if (!control) return found;
  const wants = (trigger: AlertTrigger) => subscriptions.some((s) => s.alert.triggers.includes(trigger));
  const add = (cause: AlertCause) => {
    const key = cause.endpointId.toLowerCase();
    found.set(key, [...(found.get(key) ?? []), cause]);
  };

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
        add({
          threadKey: `monitoring-threshold:${snap.input}:${kind}`,
          trigger: AlertTrigger.MonitoringThreshold,
          endpointId: snap.input,
          signature: null,
          headline: `${snap.input} is over its monitoring threshold`,
          counts: {},
          countsText: breach,
          details: {
            breach,
            backlog: snap.backlog,
            criticalAvgMs: snap.criticalAvgMs,
            maxBacklog: snap.maxBacklog,
            maxCriticalTimeMs: snap.maxCriticalTimeMs,
          },
        });
      }
  }

  if (wants(AlertTrigger.CustomCheckFailed)) {
    for (const check of (await control.customChecks()).filter((c) => !c.healthy)) {
      add({
        threadKey: `custom-check:${check.endpointId}:${check.name}`,
        trigger: AlertTrigger.CustomCheckFailed,
        endpointId: check.endpointId,
        signature: null,
        headline: `Custom check '${check.name}' of ${check.endpointId} is unhealthy`,
        counts: {},
        countsText: check.reason ?? 'no reason given',
        details: { check: check.name, reason: check.reason, checkedAt: check.checkedAt.toISOString() },
      });
    }
  }
  return found;
}
