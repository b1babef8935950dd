import { type Heartbeat, HeartbeatStatus } from '@nimbus/message-store';
import { foldHeartbeatHistory } from '@nimbus/resolver';
import { describe, expect, it } from 'vitest';

const T0 = Date.UTC(2026, 5, 1, 10, 0, 0);
const HISTORY_START = new Date(Date.UTC(2026, 2, 1));

function beat(minute: number, status: HeartbeatStatus, extra: Partial<Heartbeat> = {}): Heartbeat {
  const start = new Date(T0 + minute * 60_000);
  return {
    messageId: `m${String(minute).padStart(4, '0')}`,
    startTime: start,
    receivedTime: start,
    endTime: start,
    intervalSeconds: 300,
    sdkVersion: '1.0.0',
    endpointHeartbeatStatus: status,
    ...extra,
  };
}

describe('foldHeartbeatHistory', () => {
  it('counts received, missed and observed seconds per UTC day', () => {
    const beats = [beat(0, HeartbeatStatus.On), beat(5, HeartbeatStatus.Off), beat(10, HeartbeatStatus.On)];
    const { days } = foldHeartbeatHistory('Billing', beats, [], null, HISTORY_START, 300);
    expect(days).toHaveLength(1);
    expect(days[0]).toMatchObject({
      id: 'Billing|2026-06-01',
      expected: 3,
      received: 2,
      missed: 1,
      observedSeconds: 900,
      lastBeatUtc: beats[2]!.startTime,
    });
  });

  it('is idempotent and leaves its inputs untouched', () => {
    const beats = [beat(0, HeartbeatStatus.On), beat(5, HeartbeatStatus.On)];
    const frozen = JSON.stringify(beats);
    const first = foldHeartbeatHistory('Billing', beats, [], null, HISTORY_START, 300);
    const again = foldHeartbeatHistory('Billing', beats, first.days, null, HISTORY_START, 300);
    expect(again.days).toEqual([]);
    expect(again.gaps).toEqual([]);
    expect(JSON.stringify(beats)).toBe(frozen);
  });

  it('stops at a probe in flight and picks up once it settles', () => {
    const pending = [
      beat(0, HeartbeatStatus.On),
      beat(5, HeartbeatStatus.Pending),
      beat(10, HeartbeatStatus.On),
    ];
    const first = foldHeartbeatHistory('Billing', pending, [], null, HISTORY_START, 300);
    expect(first.days[0]).toMatchObject({ expected: 1, received: 1 });
    const settled = pending.map((b) =>
      b.endpointHeartbeatStatus === HeartbeatStatus.Pending
        ? { ...b, endpointHeartbeatStatus: HeartbeatStatus.On }
        : b,
    );
    const second = foldHeartbeatHistory('Billing', settled, first.days, null, HISTORY_START, 300);
    expect(second.days[0]).toMatchObject({ expected: 3, received: 3 });
  });

  it('opens a gap on a missed beat, keeps it across folds and closes it on recovery with both SDK versions', () => {
    const outage = [
      beat(0, HeartbeatStatus.On, { sdkVersion: '1.0.0' }),
      beat(5, HeartbeatStatus.Off),
      beat(10, HeartbeatStatus.Off),
    ];
    const first = foldHeartbeatHistory('Billing', outage, [], null, HISTORY_START, 300);
    expect(first.gaps).toEqual([
      expect.objectContaining({ fromUtc: outage[1]!.startTime, toUtc: null, sdkVersionBefore: '1.0.0' }),
    ]);
    expect(first.days[0]!.longestGapSeconds).toBe(600);
    const recovered = [...outage, beat(15, HeartbeatStatus.On, { sdkVersion: '2.0.0' })];
    const second = foldHeartbeatHistory('Billing', recovered, first.days, first.gaps[0], HISTORY_START, 300);
    expect(second.gaps).toEqual([
      expect.objectContaining({
        toUtc: recovered[3]!.startTime,
        sdkVersionBefore: '1.0.0',
        sdkVersionAfter: '2.0.0',
      }),
    ]);
    expect(second.days[0]).toMatchObject({ received: 2, missed: 2, longestGapSeconds: 600 });
  });

  it('closes an open gap on an Unsupported answer', () => {
    const beats = [beat(0, HeartbeatStatus.Off), beat(5, HeartbeatStatus.Unsupported)];
    const { gaps } = foldHeartbeatHistory('Billing', beats, [], null, HISTORY_START, 300);
    expect(gaps[0]?.toUtc).toEqual(beats[1]!.startTime);
  });

  it('caps observation at UTC midnight and uses the fallback interval only for legacy beats', () => {
    const lateStart = new Date(Date.UTC(2026, 5, 1, 23, 58, 0));
    const beats: Heartbeat[] = [
      { ...beat(0, HeartbeatStatus.On), intervalSeconds: 0 },
      { ...beat(0, HeartbeatStatus.On), messageId: 'late', startTime: lateStart },
    ];
    const { days } = foldHeartbeatHistory('Billing', beats, [], null, HISTORY_START, 60);
    expect(days[0]).toMatchObject({ observedSeconds: 60 + 120, expected: 2 });
  });

  it('accepts null and empty inputs and refuses a blank endpoint or a bad interval', () => {
    expect(foldHeartbeatHistory('Billing', null, null, null, HISTORY_START, 300)).toEqual({
      days: [],
      gaps: [],
    });
    expect(() => foldHeartbeatHistory('', [], [], null, HISTORY_START, 300)).toThrow(/endpointId/);
    expect(() => foldHeartbeatHistory('Billing', [], [], null, HISTORY_START, 0)).toThrow(
      /fallbackIntervalSeconds/,
    );
  });

  it('prefers the exact endpoint casing among stored day rows', () => {
    const day = {
      id: 'billing|2026-06-01',
      endpointId: 'billing',
      dayUtc: new Date(Date.UTC(2026, 5, 1)),
      expected: 9,
      received: 9,
      missed: 0,
      observedSeconds: 0,
      longestGapSeconds: 0,
      lastBeatUtc: new Date(T0 - 60_000),
    };
    const exact = { ...day, id: 'Billing|2026-06-01', endpointId: 'Billing', expected: 1, received: 1 };
    const { days } = foldHeartbeatHistory(
      'Billing',
      [beat(0, HeartbeatStatus.On)],
      [day, exact],
      null,
      HISTORY_START,
      300,
    );
    expect(days[0]).toMatchObject({ id: 'Billing|2026-06-01', expected: 2 });
  });
});
