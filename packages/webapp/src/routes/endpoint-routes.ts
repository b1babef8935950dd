import type { EndpointStateCount } from '@nimbus/message-store';
import { ResolutionStatus } from '@nimbus/message-store';
import { z } from 'zod';
import type { ApiDeps } from '../app/api-deps.js';
import { authorize } from '../auth/authorize.js';
import { EndpointParams, iso, RetryDto, retryDto, SessionParams } from '../http/dto.js';
import { type AnyRouteSpec, defineRoute } from '../http/route.js';
import { Role } from '../identity/roles.js';
import { retryingCount } from './retrying-count.js';

export const EndpointSummary = z.object({
  endpointId: z.string(),
  status: z.enum(['Healthy', 'Pending', 'Impacted', 'Failed', 'Unavailable']),
  pendingCount: z.number(),
  deferredCount: z.number(),
  /** Failed events awaiting an operator (retrying ones are in `retryingCount`, not here). */
  failedCount: z.number(),
  /** Failed events the retry policy will run again (stored `Failed`, shown as retrying). */
  retryingCount: z.number(),
  deadletterCount: z.number(),
  unsupportedCount: z.number(),
  /** When an event of this endpoint last changed state (any status, Completed included); null: never. */
  lastStateChangeAt: z.string().nullable(),
  error: z.string().nullable(),
});
type EndpointSummary = z.input<typeof EndpointSummary>;

function summary(
  counts: EndpointStateCount,
  retrying: number,
  lastStateChangeAt: Date | null,
): EndpointSummary {
  const failedCount = counts.failedCount - retrying;
  const failed = failedCount + counts.deadletterCount;
  const status =
    failed > 0
      ? 'Failed'
      : counts.deferredCount + retrying > 0
        ? 'Impacted'
        : counts.pendingCount + counts.unsupportedCount > 0
          ? 'Pending'
          : 'Healthy';
  return {
    endpointId: counts.endpointId,
    status,
    pendingCount: counts.pendingCount,
    deferredCount: counts.deferredCount,
    failedCount,
    retryingCount: retrying,
    deadletterCount: counts.deadletterCount,
    unsupportedCount: counts.unsupportedCount,
    lastStateChangeAt: iso(lastStateChangeAt),
    error: null,
  };
}

const SessionCount = z.object({
  sessionId: z.string(),
  pendingEvents: z.array(z.string()),
  deferredEvents: z.array(z.string()),
});

const BlockedSession = z.object({
  sessionId: z.string(),
  blockingEventId: z.string(),
  blockingStatus: z.string(),
  /** Set while the blocking event is retrying: the session is held for its retry, not for an operator. */
  retry: RetryDto,
  /** Why: the blocking event's error (or dead-letter reason), as the handler reported it. */
  blockingErrorType: z.string().nullable(),
  blockingErrorText: z.string().nullable(),
  /** When the blocking event's current status was written: the session has been blocked since. */
  blockedSince: z.string(),
  blockedForMs: z.number(),
  pendingCount: z.number(),
  /** Events parked behind the blocking one. */
  deferredCount: z.number(),
});

const BLOCKING_STATUSES = [
  ResolutionStatus.Failed,
  ResolutionStatus.DeadLettered,
  ResolutionStatus.Unsupported,
];

export function endpointRoutes(deps: ApiDeps): AnyRouteSpec[] {
  const { store, catalog, auditLog, platform, logger } = deps;

  const countsOf = async (endpointId: string): Promise<EndpointSummary> => {
    try {
      // The store's count carries the time it was read, not of a change: the newest row says when.
      const [counts, newest] = await Promise.all([
        store.downloadEndpointStateCount(endpointId),
        store.getEventsByFilter({ filter: { endpointId }, continuationToken: null, maxItems: 1 }),
      ]);
      const retrying = await retryingCount(store, endpointId, counts.failedCount);
      return summary(counts, retrying, newest.events[0]?.updatedAt ?? null);
    } catch (error) {
      logger.warn({ endpointId, err: (error as Error).message }, 'Endpoint counts unavailable');
      return {
        endpointId,
        status: 'Unavailable',
        pendingCount: 0,
        deferredCount: 0,
        failedCount: 0,
        retryingCount: 0,
        deadletterCount: 0,
        unsupportedCount: 0,
        lastStateChangeAt: null,
        error: (error as Error).message,
      };
    }
  };

  return [
    defineRoute({
      method: 'GET',
      url: '/api/endpoints',
      tag: 'Endpoint',
      summary: 'Endpoints the caller may read, with status counts',
      access: 'authenticated',
      response: z.array(EndpointSummary),
      handler: async ({ principal }) => {
        const visible = (await catalog.list()).filter((id) => principal!.has(Role.Reader, id));
        return Promise.all(visible.map(countsOf));
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/endpoints/:endpointId',
      tag: 'Endpoint',
      summary: 'One endpoint: counts, metadata and the event types it produces and consumes',
      access: 'authenticated',
      params: EndpointParams,
      response: z.object({
        endpoint: EndpointSummary,
        description: z.string().nullable(),
        produces: z.array(z.string()),
        consumes: z.array(z.string()),
        owner: z.string().nullable(),
        ownerTeam: z.string().nullable(),
        ownerEmail: z.string().nullable(),
        yourRole: z.string(),
      }),
      handler: async ({ params, principal }) => {
        const endpointId = await catalog.canonical(params.endpointId);
        await authorize(auditLog, principal!, Role.Reader, endpointId);
        const definition = platform?.getEndpoint(endpointId);
        const metadata = await store.getEndpointMetadata(endpointId);
        return {
          endpoint: await countsOf(endpointId),
          description: definition?.description ?? null,
          produces: definition?.produces.map((t) => t.id) ?? [],
          consumes: definition?.consumes.map((t) => t.id) ?? [],
          owner: metadata?.endpointOwner ?? null,
          ownerTeam: metadata?.endpointOwnerTeam ?? null,
          ownerEmail: metadata?.endpointOwnerEmail ?? null,
          yourRole: principal!.roleOn(endpointId),
        };
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/endpoints/:endpointId/sessions/:sessionId',
      tag: 'Endpoint',
      summary: 'Pending and deferred events of one session',
      access: 'authenticated',
      params: SessionParams,
      response: SessionCount,
      handler: async ({ params, principal }) => {
        const endpointId = await catalog.canonical(params.endpointId);
        await authorize(auditLog, principal!, Role.Reader, endpointId);
        const counts = await store.downloadEndpointSessionStateCount({
          endpointId,
          sessionId: params.sessionId,
        });
        return {
          ...counts,
          pendingEvents: [...counts.pendingEvents],
          deferredEvents: [...counts.deferredEvents],
        };
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/api/endpoints/:endpointId/sessions/batch',
      tag: 'Endpoint',
      summary: 'Pending and deferred events of many sessions at once',
      access: 'authenticated',
      params: EndpointParams,
      body: z.object({ sessionIds: z.array(z.string().max(200)).max(500) }),
      response: z.array(SessionCount),
      handler: async ({ params, body, principal }) => {
        const endpointId = await catalog.canonical(params.endpointId);
        await authorize(auditLog, principal!, Role.Reader, endpointId);
        const counts = await store.downloadEndpointSessionStateCountBatch({
          endpointId,
          sessionIds: body.sessionIds,
        });
        return counts.map((c) => ({
          ...c,
          pendingEvents: [...c.pendingEvents],
          deferredEvents: [...c.deferredEvents],
        }));
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/endpoints/:endpointId/sessions/:sessionId/blocked',
      tag: 'Endpoint',
      summary: 'Events waiting behind the blocking event of one session (paged)',
      access: 'authenticated',
      params: SessionParams,
      query: z.object({
        skip: z.coerce.number().int().min(0).default(0),
        take: z.coerce.number().int().min(1).max(200).default(50),
      }),
      response: z.object({
        items: z.array(z.object({ originatingId: z.string(), eventId: z.string(), status: z.string() })),
        total: z.number(),
      }),
      handler: async ({ params, query, principal }) => {
        const endpointId = await catalog.canonical(params.endpointId);
        await authorize(auditLog, principal!, Role.Reader, endpointId);
        const page = await store.getBlockedEventsOnSession({
          endpointId,
          sessionId: params.sessionId,
          skip: query.skip,
          take: query.take,
        });
        return { items: [...page.items], total: page.total };
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/endpoints/:endpointId/blocked-sessions',
      tag: 'Endpoint',
      summary:
        'Sessions blocked by a failed, dead-lettered or unsupported event, with what waits behind them',
      access: 'authenticated',
      params: EndpointParams,
      query: z.object({ max: z.coerce.number().int().min(1).max(500).default(100) }),
      response: z.array(BlockedSession),
      handler: async ({ params, query, principal }) => {
        const endpointId = await catalog.canonical(params.endpointId);
        await authorize(auditLog, principal!, Role.Reader, endpointId);
        const blocking = await store.getEventsByFilter({
          filter: { endpointId, resolutionStatus: BLOCKING_STATUSES },
          continuationToken: null,
          maxItems: query.max,
        });
        const bySession = new Map<string, (typeof blocking.events)[number]>();
        for (const row of blocking.events) {
          if (!bySession.has(row.sessionId)) bySession.set(row.sessionId, row);
        }
        const now = deps.clock.now();
        const counts = await store.downloadEndpointSessionStateCountBatch({
          endpointId,
          sessionIds: [...bySession.keys()],
        });
        return counts.map((c) => {
          const row = bySession.get(c.sessionId)!;
          const error = row.messageContent.errorContent;
          return {
            sessionId: c.sessionId,
            blockingEventId: row.eventId,
            blockingStatus: row.resolutionStatus,
            retry: retryDto(row),
            blockingErrorType: error?.errorType ?? row.deadLetterReason,
            blockingErrorText: error?.errorText ?? row.deadLetterErrorDescription,
            blockedSince: row.updatedAt.toISOString(),
            blockedForMs: Math.max(0, now - row.updatedAt.getTime()),
            pendingCount: c.pendingEvents.length,
            deferredCount: c.deferredEvents.length,
          };
        });
      },
    }),
  ];
}
