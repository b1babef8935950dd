import type {
  EventFilter,
  EventSearchRequest,
  SearchResponse,
  TrackingEventSearch,
} from '@nimbus/message-store';
import {
  matchesPrefix,
  offsetPageRequest,
  sliceOffsetPage,
  withEventJsonStripped,
} from '@nimbus/message-store/provider';
import { EndpointRows } from './endpoint-rows.js';
import { fromTrackingDocument, type TrackingDocument } from './tracking-document.js';
import type { Where } from './where.js';

/** The filter's criteria as Cosmos SQL over one endpoint container. */
function eventFilterConditions(where: Where, filter: EventFilter): Where {
  return where
    .prefix('c.eventId', filter.eventId)
    .prefix('c.sessionId', filter.sessionId)
    .oneOf('c.eventTypeId', filter.eventTypeId)
    .oneOf('c.resolutionStatus', filter.resolutionStatus)
    .equalsIfGiven('c["from"]', filter.from)
    .equalsIfGiven('c["to"]', filter.to)
    .equalsIfGiven('c.messageType', filter.messageType)
    .between('c.enqueuedTimeUtc', filter.enqueuedAtFrom, filter.enqueuedAtTo)
    .between('c.updatedAt', filter.updatedAtFrom, filter.updatedAtTo)
    .contains('c.messageContent.eventContent.eventJson', filter.payload)
    .equalsIfGiven('c.failureSignature', filter.failureSignature);
}

/**
 * The event search. Each endpoint container whose id matches the endpoint filter is queried for its
 * first `offset + size + 1` matches (newest write first); the lists are merged and the page cut here.
 * Deep pages therefore cost more request units than early ones (see docs/storage-cosmos.md).
 */
export class CosmosEventSearch extends EndpointRows implements TrackingEventSearch {
  async getEventsByFilter({
    filter,
    continuationToken = null,
    maxItems: maxSearchItemsCount,
  }: EventSearchRequest): Promise<SearchResponse> {
    const request = offsetPageRequest(continuationToken, maxSearchItemsCount);
    const wanted = request.offset + request.size + 1;
    const endpoints = (await this.context.endpointIds()).filter((id) => matchesPrefix(id, filter.endpointId));
    const found: TrackingDocument[] = [];
    for (const endpointId of endpoints) {
      found.push(...(await this.liveDocuments(endpointId, (w) => eventFilterConditions(w, filter), wanted)));
    }
    found.sort((a, b) => b.seq - a.seq);
    const page = sliceOffsetPage(found, request);
    return {
      events: page.rows.map((doc) => withEventJsonStripped(fromTrackingDocument(doc))),
      continuationToken: page.continuationToken,
    };
  }
}
