import { ALL_RESOLUTION_STATUSES, type EventFilter, type ResolutionStatus } from '@nimbus/message-store';
import { z } from 'zod';
import { commaList, optionalDate } from './query-params.js';

/** The event-search query fields both the per-endpoint and the cross-endpoint search accept. */
export const eventSearchQueryFields = {
  status: commaList.pipe(
    z.array(z.enum(ALL_RESOLUTION_STATUSES as [ResolutionStatus, ...ResolutionStatus[]])),
  ),
  eventTypeId: commaList,
  eventId: z.string().max(200).optional(),
  sessionId: z.string().max(200).optional(),
  payload: z.string().max(500).optional(),
  updatedAtFrom: optionalDate,
  updatedAtTo: optionalDate,
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
  continuationToken: z.string().max(2000).optional(),
};

type EventSearchQuery = z.infer<z.ZodObject<typeof eventSearchQueryFields>>;

/** The store filter for a parsed event-search query (empty values mean "any"). */
export function eventFilterFromQuery(query: EventSearchQuery, endpointId: string | null): EventFilter {
  return {
    endpointId,
    resolutionStatus: query.status.length > 0 ? query.status : null,
    eventTypeId: query.eventTypeId.length > 0 ? query.eventTypeId : null,
    payload: query.payload || null,
    eventId: query.eventId || null,
    sessionId: query.sessionId || null,
    updatedAtFrom: query.updatedAtFrom ? new Date(query.updatedAtFrom) : null,
    updatedAtTo: query.updatedAtTo ? new Date(query.updatedAtTo) : null,
  };
}
