import { MetricName } from './names.js';

export type MetricKind = 'counter' | 'gauge' | 'histogram';

export interface MetricInfo {
  readonly kind: MetricKind;
  /** UCUM unit of the instrument (`s` for seconds, `1` for plain counts). */
  readonly unit: 's' | '1';
  /** The HELP text on `/metrics` and the instrument's description. */
  readonly description: string;
}

const counter = (description: string): MetricInfo => ({ kind: 'counter', unit: '1', description });
const seconds = (description: string): MetricInfo => ({ kind: 'histogram', unit: 's', description });
const gauge = (description: string): MetricInfo => ({ kind: 'gauge', unit: '1', description });

/** Kind, unit and description of every NimBus metric. */
export const METRIC_CATALOG: Readonly<Record<MetricName, MetricInfo>> = {
  [MetricName.MessagePublished]: counter('Messages published to the transport'),
  [MetricName.MessagePublishFailed]: counter('Publish calls the transport rejected'),
  [MetricName.MessagePublishDuration]: seconds('Time of one publish call to the transport'),
  [MetricName.MessageReceived]: counter('Messages an endpoint received from its input'),
  [MetricName.MessageProcessed]: counter('Messages an endpoint processed, by outcome'),
  [MetricName.MessageProcessDuration]: seconds('Time an endpoint spent processing one message'),
  [MetricName.MessageQueueWait]: seconds('Time a message waited at the input before it was received'),
  [MetricName.MessageSettled]: counter('Messages settled at the transport, by settle operation'),
  [MetricName.InboxDuplicateDetected]: counter('Duplicate messages the inbox skipped'),
  [MetricName.InboxOperationFailed]: counter('Inbox checks, records or purges that failed'),
  [MetricName.InboxPurged]: counter('Inbox rows removed by the retention purge'),
  [MetricName.OutboxEnqueued]: counter('Messages written to the outbox'),
  [MetricName.OutboxDispatched]: counter('Outbox rows dispatched to the transport, by outcome'),
  [MetricName.OutboxDispatchDuration]: seconds('Time of one outbox dispatch batch'),
  [MetricName.OutboxPurged]: counter('Dispatched outbox rows removed by the retention purge'),
  [MetricName.DeferredParked]: counter('Messages parked behind a blocked session'),
  [MetricName.DeferredReplayed]: counter('Parked messages replayed after their session was unblocked'),
  [MetricName.DeferredReplayDuration]: seconds('Time of one replay of parked messages'),
  [MetricName.ResolverWrites]: counter('Messages the Resolver projected into the store, by outcome'),
  [MetricName.ResolverWriteDuration]: seconds('Time the Resolver spent projecting one message'),
  [MetricName.StoreOperationDuration]: seconds('Time of one message-store call'),
  [MetricName.StoreOperationFailed]: counter('Message-store calls that failed'),
  [MetricName.CircuitBreakerTransitions]: counter('Circuit breaker state changes, by new state'),
  [MetricName.MessageRetried]: counter('Retries of failed messages handled by an endpoint'),
  [MetricName.MessageDeadLettered]: counter('Messages dead-lettered by an endpoint'),
  [MetricName.SessionLeaseLost]: counter('Held sessions whose lease was lost (lapsed or renewal refused)'),
  [MetricName.SettlementRefused]: counter(
    'Messages whose settlement the transport refused because their lease lapsed or was taken over',
  ),
  [MetricName.EndpointMessages]: gauge('Messages at an endpoint input by state'),
  [MetricName.EndpointBlockedSessions]: gauge(
    'Sessions blocked by a failed, dead-lettered or unsupported event',
  ),
  [MetricName.ResolverLag]: {
    kind: 'gauge',
    unit: 's',
    description: 'Age of the oldest message the Resolver has not projected yet',
  },
};

/**
 * The Prometheus name of a NimBus metric: dots become underscores, a seconds unit adds `_seconds` and a
 * counter ends in `_total` (histograms expose `<name>_bucket`, `_sum` and `_count`).
 */
export function prometheusMetricName(name: MetricName): string {
  const info = METRIC_CATALOG[name];
  let base = name.replace(/\./g, '_').replace(/_total$/, '');
  if (info.unit === 's') base = `${base}_seconds`;
  return info.kind === 'counter' ? `${base}_total` : base;
}

/**
 * OpenTelemetry SDK views (`new MeterProvider({ views })`) that rename every seconds-unit NimBus instrument
 * so that the Prometheus exporter shows the unit in the name (`nimbus.resolver.lag` → `nimbus_resolver_lag_seconds`).
 * The OpenTelemetry names stay unit-free for OTLP; only a Prometheus bridge needs these.
 */
export function prometheusUnitViews(): { instrumentName: string; name: string }[] {
  return (Object.keys(METRIC_CATALOG) as MetricName[])
    .filter((name) => METRIC_CATALOG[name].unit === 's')
    .map((name) => ({ instrumentName: name, name: `${name}_seconds` }));
}
