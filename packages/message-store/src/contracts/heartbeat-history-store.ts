import type { HeartbeatGap, HeartbeatUptimeDay } from '../entities/heartbeat.js';

/** Folded heartbeat history (uptime per day and outage gaps). Not part of the aggregate. */
export interface HeartbeatHistoryStore {
  /** True when the provider expires history itself, so callers skip `pruneHeartbeatHistory`. */
  readonly prunesHeartbeatHistoryAutomatically: boolean;
  /** Days with `dayUtc >=` the UTC day of `fromDayUtc`, ordered by (endpointId, dayUtc). */
  getHeartbeatUptimeDays(fromDayUtc: Date): Promise<HeartbeatUptimeDay[]>;
  /** Replaces each row by (endpointId, dayUtc); empty input is true. */
  upsertHeartbeatUptimeDays(days: readonly HeartbeatUptimeDay[]): Promise<boolean>;
  /** Gaps overlapping the window (open, or closed at/after `fromUtc`), `fromUtc` descending. */
  getHeartbeatGaps(fromUtc: Date): Promise<HeartbeatGap[]>;
  /** Replaces each row by (endpointId, fromUtc); empty input is true. */
  upsertHeartbeatGaps(gaps: readonly HeartbeatGap[]): Promise<boolean>;
  /** Atomic claim on the settings' fold stamp, whatever `enabled` says; creates the settings if missing. */
  tryClaimHeartbeatHistoryFold(dueBefore: Date): Promise<boolean>;
  /** Deletes days before the cutoff's UTC day and closed gaps that ended before the cutoff. */
  pruneHeartbeatHistory(cutoffUtc: Date): Promise<void>;
}
