export { type BusGaugeSources, observeBusGauges } from './bus-gauges.js';
export { messageAttributes, withProcessSpan, withPublishSpan } from './message-spans.js';
export {
  METRIC_CATALOG,
  type MetricInfo,
  type MetricKind,
  prometheusMetricName,
  prometheusUnitViews,
} from './metric-catalog.js';
export { countMetric, DURATION_BUCKETS_SECONDS, measureDuration, recordDuration } from './metrics.js';
export {
  MessagingOperation,
  MetricName,
  Outcome,
  type SettleOperation,
  SpanName,
  TelemetryAttribute,
  TelemetryScope,
} from './names.js';
export {
  activeTraceFields,
  extractTraceContext,
  formatTraceParent,
  hasTraceContext,
  injectTraceContext,
  parseTraceParent,
} from './trace-context.js';
export { type CallOutcome, type TracedCallOptions, tracedCall } from './traced-call.js';
export { recordSpanError, type WithSpanOptions, withSpan } from './with-span.js';
