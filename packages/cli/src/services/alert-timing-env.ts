import { ConfigError } from '../config.js';

const SETTINGS = {
  NIMBUS_ALERTS_EVERY_MS: 'everyMs',
  NIMBUS_ALERTS_DIGEST_MS: 'digestMs',
  NIMBUS_ALERTS_MAX_PER_HOUR: 'maxPerHour',
} as const;

/** The alert loop's timing from the environment (round interval, digest window, hourly limit); unset: defaults. */
export function alertTimingFromEnv(
  env: NodeJS.ProcessEnv,
): Partial<Record<(typeof SETTINGS)[keyof typeof SETTINGS], number>> {
  const timing: Partial<Record<(typeof SETTINGS)[keyof typeof SETTINGS], number>> = {};
  for (const [name, option] of Object.entries(SETTINGS)) {
    const raw = env[name];
    if (raw === undefined || raw === '') continue;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 1)
      throw new ConfigError(`${name} must be a whole number of at least 1, got '${raw}'.`);
    timing[option as (typeof SETTINGS)[keyof typeof SETTINGS]] = value;
  }
  return timing;
}
