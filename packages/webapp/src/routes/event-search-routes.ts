import { ALL_RESOLUTION_STATUSES, type ResolutionStatus } from '@nimbus/message-store';
import { z } from 'zod';
import type { ApiDeps } from '../app/api-deps.js';
import { authorize } from '../auth/authorize.js';
import { EventDto, eventDto } from '../http/dto.js';
import { commaList, optionalDate } from '../http/query-params.js';
import { type AnyRouteSpec, defineRoute } from '../http/route.js';
import { Role } from '../identity/roles.js';

/**
 * `GET /api/events`: the operator's search across endpoints (payload text, status, event type, endpoint,
 * update time), newest update first. One endpoint needs Reader on it; all endpoints need site Reader.
 */
export function eventSearchRoutes(deps: ApiDeps): AnyRouteSpec[] {
  const { store, catalog, auditLog } = deps;
  return [
    defineRoute({
      method: 'GET',
      url: '/api/events',
      tag: 'Event',
      summary:
        'Search events across endpoints by payload text, status, event type, endpoint and update time (site Reader; Reader on the endpoint when one is given)',
      access: 'authenticated',
      query: z.object({
        endpointId: z.string().max(200).optional(),
        status: commaList.pipe(
          z.array(z.enum(ALL_RESOLUTION_STATUSES as [ResolutionStatus, ...ResolutionStatus[]])),
        ),
        eventTypeId: commaList,
        payload: z.string().max(500).optional().describe('text the event payload contains (case-sensitive)'),
        eventId: z.string().max(200).optional(),
        sessionId: z.string().max(200).optional(),
        updatedAtFrom: optionalDate,
        updatedAtTo: optionalDate,
        pageSize: z.coerce.number().int().min(1).max(200).default(50),
        continuationToken: z.string().max(2000).optional(),
      }),
      response: z.object({ events: z.array(EventDto), continuationToken: z.string().nullable() }),
      handler: async ({ query, principal }) => {
        const endpointId = query.endpointId ? await catalog.canonical(query.endpointId) : null;
        await authorize(auditLog, principal!, Role.Reader, endpointId);
        const result = await store.getEventsByFilter({
          filter: {
            endpointId,
            resolutionStatus: query.status.length > 0 ? query.status : null,
            eventTypeId: query.eventTypeId.length > 0 ? query.eventTypeId : null,
            payload: query.payload || null,
            eventId: query.eventId || null,
            sessionId: query.sessionId || null,
            updatedAtFrom: query.updatedAtFrom ? new Date(query.updatedAtFrom) : null,
            updatedAtTo: query.updatedAtTo ? new Date(query.updatedAtTo) : null,
          },
          continuationToken: query.continuationToken ?? null,
          maxItems: query.pageSize,
        });
        return { events: result.events.map(eventDto), continuationToken: result.continuationToken };
      },
    }),
  ];
}
