import type { MessageEntity, MetricsStore, TimeSeriesRequest } from '@nimbus/message-store';
import {
  endpointMetricsOf,
  endpointTimeSeriesOf,
  eventTypeTimeSeriesOf,
  failedMessageInsightsOf,
  latencyMetricsOf,
  timeSeriesOf,
} from '@nimbus/message-store/provider';
import { type CosmosStoreContext, queryAll } from './cosmos-context.js';
import { fromMessageDocument, type MessageDocument } from './message-document.js';

/**
 * Metrics over the `messages` container. The messages of the window are read with one cross-partition
 * query (only the fields the metrics use) and aggregated here: GROUP BY is avoided because the local
 * test server cannot run it, so it could not be verified (see docs/storage-cosmos.md, RU considerations).
 */
export class CosmosMetricsStore implements MetricsStore {
  constructor(private readonly context: CosmosStoreContext) {}

  async #since(from: Date): Promise<MessageEntity[]> {
    const docs = await queryAll<MessageDocument>(
      this.context.container('messages'),
      `SELECT c.id, c.eventId, c.messageId, c.endpointId, c.eventTypeId, c["from"], c.messageType, c.enqueuedTimeUtc,
              c.queueTimeMs, c.processingTimeMs, c.deadLetterErrorDescription, c.expectedBy,
              { "eventContent": null, "errorContent": c.messageContent.errorContent } AS messageContent
       FROM c WHERE c.enqueuedTimeUtc >= @from`,
      [{ name: '@from', value: from.toISOString() }],
    );
    return docs.map((d) => fromMessageDocument({ ...d, expectedBy: d.expectedBy ?? null }));
  }

  async getEndpointMetrics(from: Date) {
    return endpointMetricsOf(await this.#since(from));
  }

  async getEndpointLatencyMetrics(from: Date) {
    return latencyMetricsOf(await this.#since(from));
  }

  async getFailedMessageInsights(from: Date) {
    return failedMessageInsightsOf(await this.#since(from));
  }

  async getTimeSeriesMetrics({ from, substringLength, bucketLabel }: TimeSeriesRequest) {
    return timeSeriesOf(await this.#since(from), from, this.context.now(), substringLength, bucketLabel);
  }

  async getEndpointTimeSeriesMetrics({ from, substringLength, bucketLabel }: TimeSeriesRequest) {
    return endpointTimeSeriesOf(await this.#since(from), substringLength, bucketLabel);
  }

  async getEventTypeTimeSeriesMetrics({ from, substringLength, bucketLabel }: TimeSeriesRequest) {
    return eventTypeTimeSeriesOf(await this.#since(from), substringLength, bucketLabel);
  }
}
