import type { MetricsAccess } from '@nimbus/webapp';

/**
 * `NIMBUS_METRICS_ACCESS`: who may read the WebApp's `/metrics` — `signed-in` (default: NIMBUS_METRICS_TOKEN
 * or an API token with a site role) or `anonymous` (for a WebApp port only Prometheus can reach).
 */
export function metricsAccessFromEnv(env: Readonly<Record<string, string | undefined>>): MetricsAccess {
  const raw = env.NIMBUS_METRICS_ACCESS?.trim() || 'signed-in';
  if (raw === 'signed-in' || raw === 'anonymous') return raw;
  throw new Error(`NIMBUS_METRICS_ACCESS must be 'signed-in' or 'anonymous'; got '${raw}'.`);
}
