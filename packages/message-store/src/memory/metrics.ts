import type { MetricsStore } from '../contracts/metrics-store.js';
import {
  endpointMetricsOf,
  endpointTimeSeriesOf,
  eventTypeTimeSeriesOf,
  failedMessageInsightsOf,
  latencyMetricsOf,
  timeSeriesOf,
} from '../metrics-aggregation.js';
import type { MemoryState } from './state.js';

export function createMemoryMetrics(state: MemoryState): MetricsStore {
  const since = (from: Date) =>
    [...state.messages.values()]
      .map((m) => m.entity)
      .filter((m) => m.enqueuedTimeUtc.getTime() >= from.getTime());

  return {
    getEndpointMetrics: async (from) => endpointMetricsOf(since(from)),
    getEndpointLatencyMetrics: async (from) => latencyMetricsOf(since(from)),
    getFailedMessageInsights: async (from) => failedMessageInsightsOf(since(from)),
    getTimeSeriesMetrics: async ({ from, substringLength, bucketLabel }) =>
      timeSeriesOf(since(from), from, new Date(state.clock.now()), substringLength, bucketLabel),
    getEndpointTimeSeriesMetrics: async ({ from, substringLength, bucketLabel }) =>
      endpointTimeSeriesOf(since(from), substringLength, bucketLabel),
    getEventTypeTimeSeriesMetrics: async ({ from, substringLength, bucketLabel }) =>
      eventTypeTimeSeriesOf(since(from), substringLength, bucketLabel),
  };
}
