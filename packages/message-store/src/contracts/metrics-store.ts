import type {
  EndpointLatencyMetricsResult,
  EndpointMetricsResult,
  EndpointTimeSeriesResult,
  EventTypeTimeSeriesResult,
  FailedMessageInfo,
  TimeSeriesResult,
} from '../entities/metrics.js';

/** Metrics read from the per-message history (messages with `enqueuedTimeUtc >= from`). */
/** A time series from `from` to now, bucketed by the first `substringLength` characters of the ISO time. */
export interface TimeSeriesRequest {
  readonly from: Date;
  readonly substringLength: number;
  readonly bucketLabel: string;
}

export interface MetricsStore {
  getEndpointMetrics(from: Date): Promise<EndpointMetricsResult>;
  /** Over outcome messages (Resolution/Error/Skip/Deferral/Unsupported responses); nulls ignored. */
  getEndpointLatencyMetrics(from: Date): Promise<EndpointLatencyMetricsResult>;
  /** One entry per ErrorResponse. */
  getFailedMessageInsights(from: Date): Promise<FailedMessageInfo[]>;
  /** Zero-filled buckets from `from` (floored) to now, ascending. substringLength 16/13/10; others mean 13. */
  getTimeSeriesMetrics(request: TimeSeriesRequest): Promise<TimeSeriesResult>;
  /** Published, handled, failed and processing time per endpoint; sparse buckets (see the result type). */
  getEndpointTimeSeriesMetrics(request: TimeSeriesRequest): Promise<EndpointTimeSeriesResult>;
  /** Published counts per event type; sparse buckets; series sorted by total descending. */
  getEventTypeTimeSeriesMetrics(request: TimeSeriesRequest): Promise<EventTypeTimeSeriesResult>;
}
