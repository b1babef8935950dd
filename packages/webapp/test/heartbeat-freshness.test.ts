import { describe, expect, it } from 'vitest';
import { effectiveHeartbeatStatus, lastSeenAgeSeconds } from '../src/operator/heartbeat-freshness.js';

const settings = { enabled: true, intervalSeconds: 60, timeoutSeconds: 10, missedBeatsUntilOff: 3 };
const answeredAt = new Date('2026-12-01T10:00:00Z');
const after = (seconds: number) => answeredAt.getTime() + seconds * 1000;

describe('heartbeat freshness', () => {
  it('keeps On while the next beat is not overdue', () => {
    expect(effectiveHeartbeatStatus('On', answeredAt, settings, after(70))).toBe('On');
  });
  it('turns Late after one missed beat (interval + timeout) and Off after three', () => {
    expect(effectiveHeartbeatStatus('On', answeredAt, settings, after(71))).toBe('Late');
    expect(effectiveHeartbeatStatus('On', answeredAt, settings, after(190))).toBe('Late');
    expect(effectiveHeartbeatStatus('On', answeredAt, settings, after(191))).toBe('Off');
  });
  it('turns Off after as many missed beats as the settings say', () => {
    const patient = { ...settings, missedBeatsUntilOff: 5 };
    expect(effectiveHeartbeatStatus('On', answeredAt, patient, after(310))).toBe('Late');
    expect(effectiveHeartbeatStatus('On', answeredAt, patient, after(311))).toBe('Off');
    const strict = { ...settings, missedBeatsUntilOff: 1 };
    expect(effectiveHeartbeatStatus('On', answeredAt, strict, after(71))).toBe('Off');
  });
  it('leaves other statuses and disabled heartbeats as stored', () => {
    expect(effectiveHeartbeatStatus('Off', answeredAt, settings, after(10))).toBe('Off');
    expect(effectiveHeartbeatStatus('On', answeredAt, { ...settings, enabled: false }, after(999))).toBe(
      'On',
    );
    expect(effectiveHeartbeatStatus('On', null, settings, after(999))).toBe('On');
  });
  it('reports the age of the last answer in whole seconds', () => {
    expect(lastSeenAgeSeconds(answeredAt, after(12.9))).toBe(12);
    expect(lastSeenAgeSeconds(null, after(1))).toBeNull();
  });
});
