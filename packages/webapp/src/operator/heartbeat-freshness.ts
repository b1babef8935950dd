import type { HeartbeatSettings } from '@nimbus/message-store';

/**
 * What an operator should believe about an endpoint's heartbeat now. A stored "On" is only as fresh as its last
 * answer: one missed beat (interval + timeout without an answer) makes it Late, `missedBeatsUntilOff` (a
 * heartbeat setting) make it Off, so an endpoint that stopped does not keep saying On.
 */
export function effectiveHeartbeatStatus(
  stored: string,
  lastAnswer: Date | null,
  settings: Pick<HeartbeatSettings, 'enabled' | 'intervalSeconds' | 'timeoutSeconds' | 'missedBeatsUntilOff'>,
  now: number,
): string {
  if (!settings.enabled || stored !== 'On' || lastAnswer === null) return stored;
  const silentMs = now - lastAnswer.getTime();
  const beatMs = settings.intervalSeconds * 1000;
  const graceMs = beatMs + settings.timeoutSeconds * 1000;
  if (silentMs > graceMs + (settings.missedBeatsUntilOff - 1) * beatMs) return 'Off';
  if (silentMs > graceMs) return 'Late';
  return stored;
}

/** Whole seconds since the last answer, or null when there was none. */
export function lastSeenAgeSeconds(lastAnswer: Date | null, now: number): number | null {
  return lastAnswer === null ? null : Math.max(0, Math.floor((now - lastAnswer.getTime()) / 1000));
}
