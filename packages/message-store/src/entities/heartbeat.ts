import type { HeartbeatStatus } from '../enums.js';

/** One stored heartbeat probe of an endpoint, keyed by (endpointId, messageId). */
export interface Heartbeat {
  readonly messageId: string;
  /** When the platform sent the probe. */
  readonly startTime: Date;
  /** When the endpoint says it received it. */
  readonly receivedTime: Date;
  /** When the platform got the answer. */
  readonly endTime: Date;
  /** Schedule interval that created the probe; 0 on an answer means "keep the stored value". */
  readonly intervalSeconds: number;
  readonly sdkVersion: string | null;
  readonly endpointHeartbeatStatus: HeartbeatStatus;
}

export const HEARTBEAT_SETTINGS_ID = 'HeartbeatSettings';
/** Probe rows kept per endpoint; older ones are pruned on write. */
export const MAX_HEARTBEATS_PER_ENDPOINT = 20;

export interface HeartbeatSettings {
  readonly id: string;
  readonly enabled: boolean;
  readonly intervalSeconds: number;
  readonly timeoutSeconds: number;
  /** Owned by the send claim; a write with null keeps the stored value. */
  readonly lastSentAtUtc: Date | null;
  /** Owned by the fold claim; a write with null keeps the stored value. */
  readonly lastHeartbeatFoldAtUtc: Date | null;
  /** Beats missed in a row before an endpoint whose heartbeat is overdue (Late) counts as Off. */
  readonly missedBeatsUntilOff: number;
}

/** A settings write: without `missedBeatsUntilOff` the stored value is kept (writers that predate it). */
export type HeartbeatSettingsUpdate = Omit<HeartbeatSettings, 'missedBeatsUntilOff'> & {
  readonly missedBeatsUntilOff?: number;
};

export const DEFAULT_MISSED_BEATS_UNTIL_OFF = 3;

export const DEFAULT_HEARTBEAT_SETTINGS: HeartbeatSettings = Object.freeze({
  id: HEARTBEAT_SETTINGS_ID,
  enabled: false,
  intervalSeconds: 300,
  timeoutSeconds: 60,
  lastSentAtUtc: null,
  lastHeartbeatFoldAtUtc: null,
  missedBeatsUntilOff: DEFAULT_MISSED_BEATS_UNTIL_OFF,
});

export interface HeartbeatOverviewItem {
  readonly endpointId: string;
  readonly isHeartbeatEnabled: boolean | null;
  /** Newest probe of any status. */
  readonly messageId: string | null;
  readonly lastStartTime: Date | null;
  /** These four come from the newest answered (On or Unsupported) probe. */
  readonly lastReceivedTime: Date | null;
  readonly lastEndTime: Date | null;
  readonly roundTripMs: number | null;
  readonly sdkVersion: string;
  /** Newest settled outcome, else Pending if any probe exists, else the stored rollup, else Unknown. */
  readonly status: HeartbeatStatus;
}

/** Liveness of one of the platform's own services (today only "Resolver"). */
export interface ServiceHealth {
  readonly serviceId: string;
  /** A settled outcome; never Pending. */
  readonly status: HeartbeatStatus;
  readonly version: string | null;
  /** Non-null exactly while a probe is in flight. */
  readonly lastProbeMessageId: string | null;
  readonly lastProbeSentUtc: Date | null;
  readonly lastSeenUtc: Date | null;
  readonly roundTripMs: number | null;
}

export interface HeartbeatUptimeDay {
  /** `{endpointId}|{yyyy-MM-dd}` */
  readonly id: string;
  readonly endpointId: string;
  /** UTC midnight. */
  readonly dayUtc: Date;
  readonly expected: number;
  readonly received: number;
  readonly missed: number;
  readonly observedSeconds: number;
  readonly longestGapSeconds: number;
  readonly lastBeatUtc: Date | null;
}

export interface HeartbeatGap {
  /** `{endpointId}|{fromUtc ISO}` */
  readonly id: string;
  readonly endpointId: string;
  readonly fromUtc: Date;
  /** null while the outage continues. */
  readonly toUtc: Date | null;
  readonly sdkVersionBefore: string | null;
  readonly sdkVersionAfter: string | null;
}

export function uptimeDayId(endpointId: string, dayUtc: Date): string {
  return `${endpointId}|${dayUtc.toISOString().slice(0, 10)}`;
}

export function heartbeatGapId(endpointId: string, fromUtc: Date): string {
  return `${endpointId}|${fromUtc.toISOString()}`;
}
