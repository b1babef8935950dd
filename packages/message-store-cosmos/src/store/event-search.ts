import type {
  EventFilter,
  EventSearchRequest,
  SearchResponse,
  TrackingEventSearch,
} from '@nimbus/message-store';
import { matchesPrefix, withEventJsonStripped } from '@nimbus/message-store/provider';
import { EndpointRows } from './endpoint-rows.js';
import { encodeId } from './layout.js';
import { afterCursor, rowsWanted, seqPageOf, seqPageRequest } from './seq-keyset.js';
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

/** A row's key in a search token: its container (the encoded endpoint id, never holding `/`) and id. */
const searchKey = (doc: TrackingDocument) => `${encodeId(doc.endpointId)}/${doc.id}`;

/**
 * The event search. Each endpoint container whose id matches the endpoint filter is queried for its
 * first `size + 1` matches after the token's cursor (newest write first, keyset: see seq-keyset.ts);
 * the lists are merged and the page cut here, so every page costs the same whatever its depth.
 */
export class CosmosEventSearch extends EndpointRows implements TrackingEventSearch {
  async getEventsByFilter({
    filter,
    continuationToken = null,
    maxItems: maxSearchItemsCount,
  }: EventSearchRequest): Promise<SearchResponse> {
    const request = seqPageRequest(continuationToken, maxSearchItemsCount);
    const endpoints = (await this.context.endpointIds()).filter((id) => matchesPrefix(id, filter.endpointId));
    const found: TrackingDocument[] = [];
    for (const endpointId of endpoints) {
      const container = `${encodeId(endpointId)}/`;
      const seenHere = (request.cursor?.seen ?? [])
        .filter((key) => key.startsWith(container))
        .map((key) => key.slice(container.length));
      const conditions = (w: Where) =>
        afterCursor(eventFilterConditions(w, filter), request.cursor, seenHere);
      found.push(...(await this.liveDocuments(endpointId, conditions, rowsWanted(request))));
    }
    const page = seqPageOf(found, request, searchKey);
    return {
      events: page.rows.map((doc) => withEventJsonStripped(fromTrackingDocument(doc))),
      continuationToken: page.continuationToken,
    };
  }
}
