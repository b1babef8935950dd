import {
  type FailureGroup,
  type HeartbeatOverviewItem,
  type HeartbeatSettings,
  type NimBusMessageStore,
  ResolutionStatus,
  rowFailureSignature,
  type UnresolvedEvent,
} from '@nimbus/message-store';
import { effectiveHeartbeatStatus } from '../operator/heartbeat-freshness.js';
import { AlertTrigger } from './alert-store.js';
import { type AlertSubscription, wantsFailure } from './alert-subscriptions.js';

/** One cause a subscription hears of: it opens, updates and resolves one alert thread. */
export interface AlertCause {
  readonly threadKey: string;
  readonly trigger: AlertTrigger;
  readonly endpointId: string;
  /** The failure signature (snoozes name it); null for a heartbeat outage. */
  readonly signature: string | null;
  /** What the cause is, without counts: "Failure group on Erp: Error: VAT number <value> rejected". */
  readonly headline: string;
  /** The counts; an update is sent when they change. */
  readonly counts: Readonly<Record<string, number>>;
  readonly countsText: string;
  readonly details: Readonly<Record<string, unknown>>;
}

/** What blocks a session: the rows the operator has to resubmit or skip (a retrying failure does not). */
const BLOCKING = [ResolutionStatus.Failed, ResolutionStatus.DeadLettered, ResolutionStatus.Unsupported];
/** Blocking rows read per endpoint and round (newest first). */
const BLOCKING_SCAN = 5_000;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function failureGroupCause(g: FailureGroup, endpointId: string): AlertCause {
  const counts = {
    eventCount: g.eventCount,
    sessionCount: g.sessionCount,
    endpointCount: g.endpointIds.length,
    failedCount: g.failedCount,
    deadLetteredCount: g.deadLetteredCount,
  };
  return {
    threadKey: `failure-group:${endpointId}:${g.signature}`,
    trigger: AlertTrigger.NewFailureGroup,
    endpointId,
    signature: g.signature,
    headline: `Failure group on ${endpointId}: ${g.errorType}: ${g.normalisedMessage}`,
    counts,
    countsText: `${plural(g.eventCount, 'event')} in ${plural(g.sessionCount, 'session')} on ${plural(counts.endpointCount, 'endpoint')}`,
    details: {
      signature: g.signature,
      errorType: g.errorType,
      normalisedMessage: g.normalisedMessage,
      exampleErrorText: g.exampleErrorText,
      ...counts,
      endpointIds: g.endpointIds,
      eventTypeIds: g.eventTypeIds,
      firstSeen: g.firstSeen.toISOString(),
      lastSeen: g.lastSeen.toISOString(),
    },
  };
}

/** The blocking rows of an endpoint that await an operator, one per session (its newest). */
export async function blockingRows(
  store: NimBusMessageStore,
  endpointId: string,
): Promise<UnresolvedEvent[]> {
  const { events } = await store.getEventsByFilter({
    filter: { endpointId, resolutionStatus: BLOCKING },
    continuationToken: null,
    maxItems: BLOCKING_SCAN,
  });
  const bySession = new Map<string, UnresolvedEvent>();
  for (const row of events)
    if (
      !row.retry &&
      row.endpointId.toLowerCase() === endpointId.toLowerCase() &&
      !bySession.has(row.sessionId)
    )
      bySession.set(row.sessionId, row);
  return [...bySession.values()];
}

const causeSignature = (row: UnresolvedEvent) =>
  rowFailureSignature(row) ?? `Unsupported: no handler for ${row.eventTypeId ?? 'the event type'}`;

/**
 * Sessions blocked by one cause longer than the subscription's `blockedMinutes`, per cause: one thread whose
 * session count rises, instead of one alert per session.
 */
export function blockedSessionCauses(
  rows: readonly UnresolvedEvent[],
  s: AlertSubscription,
  endpointId: string,
  now: number,
): AlertCause[] {
  const byCause = new Map<string, UnresolvedEvent[]>();
  for (const row of rows) {
    const errorText = row.messageContent.errorContent?.errorText ?? row.deadLetterErrorDescription ?? '';
    if (now - row.updatedAt.getTime() < s.alert.blockedMinutes * 60_000) continue;
    if (!wantsFailure(s, [row.eventTypeId], errorText)) continue;
    const key = causeSignature(row);
    byCause.set(key, [...(byCause.get(key) ?? []), row]);
  }
  return [...byCause].map(([signature, blocked]) => {
    const oldest = Math.min(...blocked.map((r) => r.updatedAt.getTime()));
    const example = blocked[0]!;
    return {
      threadKey: `sessions-blocked:${endpointId}:${signature}`,
      trigger: AlertTrigger.SessionBlocked,
      endpointId,
      signature,
      headline: `Sessions on ${endpointId} blocked by ${signature}`,
      counts: { sessionCount: blocked.length },
      countsText: `${plural(blocked.length, 'session')} blocked for ${s.alert.blockedMinutes}+ min`,
      details: {
        signature,
        sessionCount: blocked.length,
        blockedSince: new Date(oldest).toISOString(),
        exampleSessionId: example.sessionId,
        exampleEventId: example.eventId,
        exampleStatus: example.resolutionStatus,
        exampleErrorText:
          example.messageContent.errorContent?.errorText ?? example.deadLetterErrorDescription,
        sessionIds: blocked.slice(0, 20).map((r) => r.sessionId),
      },
    };
  });
}

export interface HeartbeatView {
  readonly settings: HeartbeatSettings;
  readonly rows: readonly HeartbeatOverviewItem[];
}

/** An endpoint whose heartbeat is Off: one thread per outage (no updates), resolved when it answers again. */
export function heartbeatCause(view: HeartbeatView, endpointId: string, now: number): AlertCause | null {
  const row = view.rows.find((r) => r.endpointId.toLowerCase() === endpointId.toLowerCase());
  if (!row || !view.settings.enabled) return null;
  const status = effectiveHeartbeatStatus(row.status, row.lastEndTime, view.settings, now);
  if (status !== 'Off') return null;
  const lastSeen = row.lastEndTime?.toISOString() ?? null;
  return {
    threadKey: `heartbeat-lost:${endpointId}`,
    trigger: AlertTrigger.HeartbeatLost,
    endpointId,
    signature: null,
    headline: `Heartbeat of ${endpointId} lost`,
    counts: {},
    countsText: `last answer ${lastSeen ?? 'never'}`,
    details: { status, reportedStatus: row.status, lastSeen },
  };
}
