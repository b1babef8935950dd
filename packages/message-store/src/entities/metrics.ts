export interface EndpointEventTypeCount {
  readonly endpointId: string;
  readonly eventTypeId: string;
  readonly count: number;
}

export interface EndpointMetricsResult {
  /** EventRequest messages, keyed by the publisher (`from`). */
  readonly published: readonly EndpointEventTypeCount[];
  /** ResolutionResponse messages, keyed by the handling endpoint. */
  readonly handled: readonly EndpointEventTypeCount[];
  /** ErrorResponse messages, keyed by the handling endpoint. */
  readonly failed: readonly EndpointEventTypeCount[];
}

export interface LatencyAggregate {
  readonly count: number;
  readonly avgMs: number;
  readonly minMs: number;
  readonly maxMs: number;
}

export interface EndpointLatencyAggregate {
  readonly endpointId: string;
  readonly eventTypeId: string;
  readonly queue: LatencyAggregate;
  readonly processing: LatencyAggregate;
}

export interface EndpointLatencyMetricsResult {
  readonly latencies: readonly EndpointLatencyAggregate[];
}

export interface FailedMessageInfo {
  readonly endpointId: string;
  readonly eventTypeId: string;
  readonly errorText: string;
  readonly enqueuedTimeUtc: Date;
  readonly eventId: string;
}

export interface TimeSeriesBucket {
  /** ISO-8601 UTC timestamp cut to the bucket width (16 = minute, 13 = hour, 10 = day). */
  readonly timestamp: string;
  readonly published: number;
  readonly handled: number;
  readonly failed: number;
}

export interface TimeSeriesResult {
  readonly bucketSize: string;
  readonly dataPoints: readonly TimeSeriesBucket[];
}

/** One endpoint in one time bucket; only buckets where the endpoint has messages are listed. */
export interface EndpointTimeSeriesBucket {
  /** ISO-8601 UTC timestamp cut to the bucket width (16 = minute, 13 = hour, 10 = day). */
  readonly timestamp: string;
  readonly endpointId: string;
  /** EventRequests the endpoint published (counted under the publisher, as in `getEndpointMetrics`). */
  readonly published: number;
  /** ResolutionResponses and ErrorResponses the endpoint reported. */
  readonly handled: number;
  readonly failed: number;
  /** Processing time of every outcome the endpoint reported in the bucket (nulls ignored). */
  readonly processing: LatencyAggregate;
}

export interface EndpointTimeSeriesResult {
  readonly bucketSize: string;
  /** Ascending by timestamp, then by endpoint id (ordinal). */
  readonly dataPoints: readonly EndpointTimeSeriesBucket[];
}

export interface EventTypeSeriesBucket {
  readonly timestamp: string;
  readonly published: number;
}

export interface EventTypeSeriesEntry {
  readonly eventTypeId: string;
  readonly total: number;
  readonly dataPoints: readonly EventTypeSeriesBucket[];
}

export interface EventTypeTimeSeriesResult {
  readonly bucketSize: string;
  readonly series: readonly EventTypeSeriesEntry[];
}
