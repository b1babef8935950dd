import type { EndpointMetadata } from './entities/endpoint-metadata.js';
import type { Heartbeat, HeartbeatOverviewItem } from './entities/heartbeat.js';
import { HeartbeatStatus } from './enums.js';

/** Newest first: by start time, then end time. */
export function newestHeartbeatsFirst(rows: readonly Heartbeat[]): Heartbeat[] {
  return [...rows].sort(
    (a, b) => b.startTime.getTime() - a.startTime.getTime() || b.endTime.getTime() - a.endTime.getTime(),
  );
}

/** The endpoint's rollup: newest settled outcome; Pending if only probes in flight; `current` when no rows. */
export function heartbeatRollup(
  rows: readonly Heartbeat[],
  current: HeartbeatStatus | null,
): HeartbeatStatus | null {
  if (rows.length === 0) return current;
  const settled = newestHeartbeatsFirst(rows).find(
    (h) => h.endpointHeartbeatStatus !== HeartbeatStatus.Pending,
  );
  return settled?.endpointHeartbeatStatus ?? HeartbeatStatus.Pending;
}

/** One overview row: an in-flight probe never masks the last settled outcome. */
export function heartbeatOverviewItem(metadata: EndpointMetadata): HeartbeatOverviewItem {
  const ordered = newestHeartbeatsFirst(metadata.heartbeats);
  const newest = ordered[0];
  const settled = ordered.find((h) => h.endpointHeartbeatStatus !== HeartbeatStatus.Pending);
  const answered = ordered.find(
    (h) =>
      h.endpointHeartbeatStatus === HeartbeatStatus.On ||
      h.endpointHeartbeatStatus === HeartbeatStatus.Unsupported,
  );
  const status =
    settled?.endpointHeartbeatStatus ??
    (newest !== undefined
      ? HeartbeatStatus.Pending
      : (metadata.endpointHeartbeatStatus ?? HeartbeatStatus.Unknown));
  return {
    endpointId: metadata.endpointId,
    isHeartbeatEnabled: metadata.isHeartbeatEnabled,
    messageId: newest?.messageId ?? null,
    lastStartTime: newest?.startTime ?? null,
    lastReceivedTime: answered?.receivedTime ?? null,
    lastEndTime: answered?.endTime ?? null,
    roundTripMs: answered === undefined ? null : answered.endTime.getTime() - answered.startTime.getTime(),
    sdkVersion: answered?.sdkVersion ?? '',
    status,
  };
}
