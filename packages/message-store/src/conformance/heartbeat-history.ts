import { describe, expect, it } from 'vitest';
import type { HeartbeatHistoryStore } from '../contracts/heartbeat-history-store.js';
import {
  type HeartbeatGap,
  type HeartbeatUptimeDay,
  heartbeatGapId,
  uptimeDayId,
} from '../entities/heartbeat.js';
import type { ConformanceStoreFactory } from './factory.js';
import { DAY, HOUR, MINUTE } from './fixtures.js';
import { storeOpener, T0 } from './harness.js';

const midnight = Date.UTC(2026, 6, 10);

function day(endpointId: string, dayStart: number, expected: number): HeartbeatUptimeDay {
  const dayUtc = new Date(dayStart);
  return {
    id: uptimeDayId(endpointId, dayUtc),
    endpointId,
    dayUtc,
    expected,
    received: expected,
    missed: 0,
    observedSeconds: expected * 300,
    longestGapSeconds: 0,
    lastBeatUtc: new Date(dayStart + HOUR),
  };
}

function gap(
  endpointId: string,
  from: number,
  to: number | null,
  sdkVersionAfter: string | null = null,
): HeartbeatGap {
  const fromUtc = new Date(from);
  return {
    id: heartbeatGapId(endpointId, fromUtc),
    endpointId,
    fromUtc,
    toUtc: to === null ? null : new Date(to),
    sdkVersionBefore: '1.0.0',
    sdkVersionAfter,
  };
}

export function describeHeartbeatHistoryStoreConformance(
  providerName: string,
  factory: ConformanceStoreFactory<HeartbeatHistoryStore>,
): void {
  describe(`HeartbeatHistoryStore conformance [${providerName}]`, () => {
    const open = storeOpener(factory);
    const mine = <T extends { endpointId: string }>(rows: T[], ep: string) =>
      rows.filter((r) => r.endpointId === ep);

    it('uptime days round-trip and an upsert replaces the row', async () => {
      const { store, id } = await open();
      const ep = id('ep');
      await store.upsertHeartbeatUptimeDays([day(ep, midnight, 3)]);
      await store.upsertHeartbeatUptimeDays([day(ep, midnight, 7)]);
      const days = mine(await store.getHeartbeatUptimeDays(new Date(midnight + 5 * HOUR)), ep);
      expect(days).toHaveLength(1);
      expect(days[0]).toMatchObject({
        expected: 7,
        dayUtc: new Date(midnight),
        lastBeatUtc: new Date(midnight + HOUR),
      });
    });

    it('the gap query returns every overlapping shape and an upsert replaces the gap', async () => {
      const { store, id } = await open();
      const ep = id('ep');
      const windowStart = T0;
      await store.upsertHeartbeatGaps([
        gap(ep, windowStart - HOUR, windowStart + MINUTE),
        gap(ep, windowStart + 10 * MINUTE, windowStart + 20 * MINUTE),
        gap(ep, windowStart - 2 * HOUR, null),
        gap(ep, windowStart - 3 * HOUR, windowStart - 2.5 * HOUR),
      ]);
      let gaps = mine(await store.getHeartbeatGaps(new Date(windowStart)), ep);
      expect(gaps.map((g) => g.fromUtc.getTime())).toEqual([
        windowStart + 10 * MINUTE,
        windowStart - HOUR,
        windowStart - 2 * HOUR,
      ]);
      await store.upsertHeartbeatGaps([
        gap(ep, windowStart + 10 * MINUTE, windowStart + 20 * MINUTE, '2.0.0'),
      ]);
      gaps = mine(await store.getHeartbeatGaps(new Date(windowStart)), ep);
      expect(gaps).toHaveLength(3);
      expect(gaps[0]?.sdkVersionAfter).toBe('2.0.0');
    });

    it('empty upserts succeed without rows', async () => {
      const { store } = await open();
      expect(await store.upsertHeartbeatUptimeDays([])).toBe(true);
      expect(await store.upsertHeartbeatGaps([])).toBe(true);
    });

    it('the fold claim allows one caller until due, creating the settings if missing', async () => {
      const { store, clock } = await open();
      expect(await store.tryClaimHeartbeatHistoryFold(new Date(clock.now() + MINUTE))).toBe(true);
      expect(await store.tryClaimHeartbeatHistoryFold(new Date(clock.now() - MINUTE))).toBe(false);
      expect(await store.tryClaimHeartbeatHistoryFold(new Date(clock.now() + MINUTE))).toBe(true);
    });

    it('prune removes old days and closed gaps but keeps open gaps', async () => {
      const { store, id } = await open();
      const ep = id('ep');
      const cutoff = new Date(midnight + 6 * HOUR);
      await store.upsertHeartbeatUptimeDays([day(ep, midnight - DAY, 1), day(ep, midnight, 2)]);
      await store.upsertHeartbeatGaps([
        gap(ep, midnight - DAY, midnight - HOUR),
        gap(ep, midnight - DAY - HOUR, null),
      ]);
      await store.pruneHeartbeatHistory(cutoff);
      expect(
        mine(await store.getHeartbeatUptimeDays(new Date(midnight - 5 * DAY)), ep).map((d) => d.expected),
      ).toEqual([2]);
      const gaps = mine(await store.getHeartbeatGaps(new Date(midnight - 5 * DAY)), ep);
      expect(gaps.map((g) => g.toUtc)).toEqual([null]);
    });
  });
}
