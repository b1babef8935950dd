import type { FailureGroup } from '@nimbus/message-store';
import { z } from 'zod';
import type { ApiDeps } from '../app/api-deps.js';
import { authorize } from '../auth/authorize.js';
import { EndpointParams } from '../http/dto.js';
import { type AnyRouteSpec, defineRoute } from '../http/route.js';
import { Role } from '../identity/roles.js';

export const FailureGroupDto = z.object({
  /** Pass as `filter.failureSignature` to `POST /api/bulk-jobs`, or `failureSignature` to the event search. */
  signature: z.string(),
  errorType: z.string(),
  normalisedMessage: z.string(),
  endpointIds: z.array(z.string()),
  eventCount: z.number(),
  sessionCount: z.number(),
  failedCount: z.number(),
  deadLetteredCount: z.number(),
  eventTypeIds: z.array(z.string()),
  firstSeen: z.string(),
  lastSeen: z.string(),
  exampleErrorText: z.string().nullable(),
});

function groupDto(group: FailureGroup): z.input<typeof FailureGroupDto> {
  return {
    ...group,
    endpointIds: [...group.endpointIds],
    eventTypeIds: [...group.eventTypeIds],
    firstSeen: group.firstSeen.toISOString(),
    lastSeen: group.lastSeen.toISOString(),
  };
}

const signatureQuery = z.object({ signature: z.string().min(1).max(400).optional() });

/** Failed and dead-lettered events grouped by failure signature, counted by the store. */
export function failureGroupRoutes(deps: ApiDeps): AnyRouteSpec[] {
  const { store, catalog, auditLog } = deps;
  return [
    defineRoute({
      method: 'GET',
      url: '/api/failure-groups',
      tag: 'Failure group',
      summary: 'Failure groups across the endpoints the caller may read, newest first',
      access: 'authenticated',
      query: signatureQuery,
      response: z.array(FailureGroupDto),
      handler: async ({ query, principal }) => {
        const endpointIds = (await catalog.list()).filter((id) => principal!.has(Role.Reader, id));
        const groups = await store.getFailureGroups({
          endpointIds,
          acrossEndpoints: true,
          signature: query.signature ?? null,
        });
        return groups.map(groupDto);
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/endpoints/:endpointId/failure-groups',
      tag: 'Failure group',
      summary: 'Failure groups of one endpoint, newest first',
      access: 'authenticated',
      params: EndpointParams,
      query: signatureQuery,
      response: z.array(FailureGroupDto),
      handler: async ({ params, query, principal }) => {
        const endpointId = await catalog.canonical(params.endpointId);
        await authorize(auditLog, principal!, Role.Reader, endpointId);
        const groups = await store.getFailureGroups({
          endpointIds: [endpointId],
          signature: query.signature ?? null,
        });
        return groups.map(groupDto);
      },
    }),
  ];
}
