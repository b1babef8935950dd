import { NimBusError, NimBusErrorCode } from '@nimbus/core';
import {
  type Heartbeat,
  type HeartbeatGap,
  HeartbeatStatus,
  type HeartbeatUptimeDay,
  heartbeatGapId,
  uptimeDayId,
} from '@nimbus/message-store';

export interface HeartbeatFoldResult {
  readonly days: readonly HeartbeatUptimeDay[];
  readonly gaps: readonly HeartbeatGap[];
}

const DAY_MS = 86_400_000;

function utcDay(time: Date): Date {
  return new Date(Math.floor(time.getTime() / DAY_MS) * DAY_MS);
}

type MutableDay = { -readonly [K in keyof HeartbeatUptimeDay]: HeartbeatUptimeDay[K] };
type MutableGap = { -readonly [K in keyof HeartbeatGap]: HeartbeatGap[K] };

/** Of several stored rows for one day, the exact-case id wins, then the latest watermark, then id order. */
function pickDay(endpointId: string, a: HeartbeatUptimeDay, b: HeartbeatUptimeDay): HeartbeatUptimeDay {
  const aExact = a.endpointId === endpointId;
  const bExact = b.endpointId === endpointId;
  if (aExact !== bExact) return aExact ? a : b;
  const aBeat = a.lastBeatUtc?.getTime() ?? 0;
  const bBeat = b.lastBeatUtc?.getTime() ?? 0;
  if (aBeat !== bBeat) return aBeat > bBeat ? a : b;
  return a.id <= b.id ? a : b;
}

/**
 * Folds an endpoint's retained probe rows into per-day uptime and outage gaps. Pure: inputs are never
 * changed; only days and gaps that changed are returned. Beats at or before the watermark (the newest
 * folded beat) are skipped, and folding stops at the first probe still in flight.
 */
export function foldHeartbeatHistory(
  endpointId: string,
  beats: readonly Heartbeat[] | null | undefined,
  existingDays: readonly HeartbeatUptimeDay[] | null | undefined,
  openGap: HeartbeatGap | null | undefined,
  historyStart: Date,
  fallbackIntervalSeconds: number,
): HeartbeatFoldResult {
  if (!endpointId)
    throw new NimBusError(NimBusErrorCode.InvalidArgument, 'foldHeartbeatHistory: endpointId is required');
  if (!(fallbackIntervalSeconds > 0)) {
    throw new NimBusError(
      NimBusErrorCode.InvalidArgument,
      `foldHeartbeatHistory: fallbackIntervalSeconds must be > 0, got ${fallbackIntervalSeconds}`,
    );
  }
  const days = new Map<number, MutableDay>();
  for (const day of existingDays ?? []) {
    const key = utcDay(day.dayUtc).getTime();
    const known = days.get(key);
    days.set(key, { ...(known ? pickDay(endpointId, known, day) : day) });
  }
  let watermark = historyStart.getTime();
  for (const day of days.values()) {
    const beat = day.lastBeatUtc?.getTime();
    if (beat !== undefined && beat > watermark) watermark = beat;
  }
  const ordered = [...(beats ?? [])].sort(
    (a, b) => a.startTime.getTime() - b.startTime.getTime() || (a.messageId < b.messageId ? -1 : 1),
  );
  let latestSdk: string | null = null;
  for (const beat of ordered) {
    if (beat.startTime.getTime() <= watermark && beat.sdkVersion) latestSdk = beat.sdkVersion;
  }
  let gap: MutableGap | null = openGap && openGap.toUtc === null ? { ...openGap } : null;
  const changedDays = new Set<number>();
  let gapChanged = false;
  const changedGaps: HeartbeatGap[] = [];

  for (const beat of ordered) {
    const start = beat.startTime.getTime();
    if (start <= watermark || start < historyStart.getTime()) continue;
    if (beat.endpointHeartbeatStatus === HeartbeatStatus.Pending) break;
    const dayStart = utcDay(beat.startTime);
    const key = dayStart.getTime();
    const interval = beat.intervalSeconds > 0 ? beat.intervalSeconds : fallbackIntervalSeconds;
    const day: MutableDay = days.get(key) ?? {
      id: uptimeDayId(endpointId, dayStart),
      endpointId,
      dayUtc: dayStart,
      expected: 0,
      received: 0,
      missed: 0,
      observedSeconds: 0,
      longestGapSeconds: 0,
      lastBeatUtc: null,
    };
    days.set(key, day);
    changedDays.add(key);
    day.expected += 1;
    day.observedSeconds += Math.min(interval, Math.floor((key + DAY_MS - start) / 1000));
    day.lastBeatUtc = beat.startTime;
    if (beat.endpointHeartbeatStatus === HeartbeatStatus.Off) {
      day.missed += 1;
      if (!gap) {
        gap = {
          id: heartbeatGapId(endpointId, beat.startTime),
          endpointId,
          fromUtc: beat.startTime,
          toUtc: null,
          sdkVersionBefore: latestSdk,
          sdkVersionAfter: null,
        };
      }
      gapChanged = true;
      const span = Math.round((start - gap.fromUtc.getTime()) / 1000) + interval;
      day.longestGapSeconds = Math.max(day.longestGapSeconds, span);
    } else {
      day.received += 1;
      if (gap) {
        gap.toUtc = beat.startTime;
        gap.sdkVersionAfter = beat.sdkVersion ?? '';
        day.longestGapSeconds = Math.max(
          day.longestGapSeconds,
          Math.round((start - gap.fromUtc.getTime()) / 1000),
        );
        changedGaps.push(gap);
        gap = null;
        gapChanged = false;
      }
    }
    if (beat.sdkVersion) latestSdk = beat.sdkVersion;
    watermark = start;
  }
  if (gap && gapChanged) changedGaps.push(gap);
  return {
    days: [...changedDays].sort((a, b) => a - b).map((key) => ({ ...days.get(key)! })),
    gaps: changedGaps.map((g) => ({ ...g })),
  };
}
