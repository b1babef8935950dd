import { type Logger, observeBusGauges, type Platform, systemClock, type Transport } from '@nimbus/core';
import { type NimBusMessageStore, ResolutionStatus } from '@nimbus/message-store';
import { installPrometheusMetrics, type PrometheusMetrics } from './prometheus-metrics.js';

const BLOCKING = [ResolutionStatus.Failed, ResolutionStatus.DeadLettered, ResolutionStatus.Unsupported];
/** Blocking rows read per endpoint and scrape; more blocked sessions than this report this many. */
const BLOCKED_SESSIONS_SCAN = 1_000;

/**
 * Metrics for a service process: the Prometheus bridge plus, when `busGauges` is set, the bus gauges
 * (messages per endpoint and state, blocked sessions, Resolver lag) read from the transport and the store at
 * each scrape. Only the processes that run the Resolver report the bus gauges: they are deployment-wide
 * readings, and a WebApp reporting them as well made every dashboard `sum` count them twice.
 */
export function startServiceMetrics(args: {
  readonly transport: Transport;
  readonly store: Pick<NimBusMessageStore, 'getEventsByFilter'>;
  readonly platform: Platform | null;
  readonly logger: Logger;
  /** `service.name` on every series (`target_info`). */
  readonly serviceName: string;
  /** Report the bus gauges from this process (the Resolver's processes do). */
  readonly busGauges: boolean;
}): PrometheusMetrics {
  const prometheus = installPrometheusMetrics(args.serviceName);
  if (!args.busGauges) return prometheus;
  const stopGauges = observeBusGauges({
    transport: args.transport,
    clock: systemClock,
    logger: args.logger,
    endpoints: async () =>
      args.platform
        ? args.platform.endpoints.map((e) => e.id)
        : (await args.transport.getTopology()).endpoints,
    blockedSessions: async (endpointId) => {
      const page = await args.store.getEventsByFilter({
        filter: { endpointId, resolutionStatus: BLOCKING },
        continuationToken: null,
        maxItems: BLOCKED_SESSIONS_SCAN,
      });
      return new Set(page.events.map((event) => event.sessionId)).size;
    },
  });
  return {
    contentType: prometheus.contentType,
    scrape: () => prometheus.scrape(),
    close: async () => {
      stopGauges();
      await prometheus.close();
    },
  };
}
