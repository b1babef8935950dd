import type { EventSearchRequest, SearchResponse, TrackingEventSearch } from '@nimbus/message-store';
import { offsetPageRequest, withEventJsonStripped } from '@nimbus/message-store/provider';
import { toMs } from './document-codec.js';
import { fetchOffsetPage } from './fetch-offset-page.js';
import type { StoreContext } from './store-context.js';
import { trackedMessageConditions } from './tracked-message-conditions.js';
import { unresolvedFromRow } from './unresolved-rows.js';

const EVENT_JSON_PATH = ['messageContent', 'eventContent', 'eventJson'] as const;

/** `getEventsByFilter`: live rows of every status, newest update first, payload stripped. */
export class EventSearch implements TrackingEventSearch {
  constructor(private readonly context: StoreContext) {}

  async getEventsByFilter({
    filter,
    continuationToken = null,
    maxItems: maxSearchItemsCount,
  }: EventSearchRequest): Promise<SearchResponse> {
    const { dialect } = this.context;
    const request = offsetPageRequest(continuationToken, maxSearchItemsCount);
    let query = dialect.db
      .selectFrom('unresolved_events')
      .select(['document_json', 'status'])
      .where('deleted', '=', 0);
    for (const condition of trackedMessageConditions(filter)) query = query.where(condition);
    if (filter.resolutionStatus?.length) query = query.where('status', 'in', filter.resolutionStatus);
    if (filter.updatedAtFrom) query = query.where('updated_at', '>=', toMs(filter.updatedAtFrom));
    if (filter.updatedAtTo) query = query.where('updated_at', '<=', toMs(filter.updatedAtTo));
    if (filter.failureSignature) query = query.where('failure_signature', '=', filter.failureSignature);
    if (filter.payload) {
      const payload = filter.payload;
      query = query.where(() =>
        dialect.containsText(dialect.jsonText('document_json', EVENT_JSON_PATH), payload),
      );
    }
    const page = await fetchOffsetPage(query.orderBy('updated_at', 'desc').orderBy('id', 'desc'), request);
    return {
      events: page.rows.map((row) => withEventJsonStripped(unresolvedFromRow(row))),
      continuationToken: page.continuationToken,
    };
  }
}
