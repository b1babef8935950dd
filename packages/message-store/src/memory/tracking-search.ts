import type { TrackingEventSearch } from '../contracts/message-tracking-store.js';
import { withEventJsonStripped } from '../normalize.js';
import { offsetPageRequest, sliceOffsetPage } from '../offset-paging.js';
import { matchesOneOf, matchesTrackedMessageFilter, withinRange } from '../search-matching.js';
import { liveRows, newestFirst } from './live-rows.js';
import { clone, type MemoryState } from './state.js';

export function createTrackingSearch(state: MemoryState): TrackingEventSearch {
  return {
    async getEventsByFilter({ filter, continuationToken, maxItems }) {
      const request = offsetPageRequest(continuationToken ?? null, maxItems);
      const matching = liveRows(state)
        .filter((r) => {
          const e = r.event;
          const json = e.messageContent.eventContent?.eventJson ?? '';
          return (
            matchesTrackedMessageFilter(e, filter) &&
            matchesOneOf(e.resolutionStatus, filter.resolutionStatus) &&
            withinRange(e.updatedAt, filter.updatedAtFrom, filter.updatedAtTo) &&
            (filter.payload == null || filter.payload === '' || json.includes(filter.payload)) &&
            (!filter.failureSignature || filter.failureSignature === r.failureSignature)
          );
        })
        .sort(newestFirst);
      const page = sliceOffsetPage(matching, request);
      return {
        events: page.rows.map((r) => withEventJsonStripped(clone(r.event))),
        continuationToken: page.continuationToken,
      };
    },
  };
}
