import { z } from 'zod';
import type { ApiDeps } from '../app/api-deps.js';
import { authorize } from '../auth/authorize.js';
import { EventDto, eventDto } from '../http/dto.js';
import { eventFilterFromQuery, eventSearchQueryFields } from '../http/event-filter-query.js';
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
        ...eventSearchQueryFields,
        payload: eventSearchQueryFields.payload.describe('text the event payload contains (case-sensitive)'),
      }),
      response: z.object({ events: z.array(EventDto), continuationToken: z.string().nullable() }),
      handler: async ({ query, principal }) => {
        const endpointId = query.endpointId ? await catalog.canonical(query.endpointId) : null;
        await authorize(auditLog, principal!, Role.Reader, endpointId);
        const result = await store.getEventsByFilter({
          filter: eventFilterFromQuery(query, endpointId),
          continuationToken: query.continuationToken ?? null,
          maxItems: query.pageSize,
        });
        return { events: result.events.map(eventDto), continuationToken: result.continuationToken };
      },
    }),
  ];
}
