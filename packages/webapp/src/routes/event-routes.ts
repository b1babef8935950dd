import { Addresses, MessageType } from '@nimbus/core';
import {
  HANDOFF_SUB_STATUS,
  type MessageEntity,
  ResolutionStatus,
  rowFailureSignature,
} from '@nimbus/message-store';
import { z } from 'zod';
import type { ApiDeps } from '../app/api-deps.js';
import { authorize } from '../auth/authorize.js';
import {
  AuditDto,
  auditDto,
  EndpointParams,
  EventDto,
  EventParams,
  eventDto,
  MessageDto,
  messageDto,
} from '../http/dto.js';
import { eventFilterFromQuery, eventSearchQueryFields } from '../http/event-filter-query.js';
import { notFound } from '../http/http-error.js';
import { commaList } from '../http/query-params.js';
import { type AnyRouteSpec, defineRoute } from '../http/route.js';
import { Role } from '../identity/roles.js';

const PAYLOAD_TYPES = new Set<string>([
  MessageType.EventRequest,
  MessageType.ResubmissionRequest,
  MessageType.RetryRequest,
  MessageType.ContinuationRequest,
  MessageType.ProcessDeferredRequest,
]);

/** The newest request in the history that carries a payload: what a resubmit sends and the UI shows. */
export function latestPayloadMessage(
  history: readonly MessageEntity[],
  endpointId: string,
): MessageEntity | null {
  const candidates = history.filter(
    (m) =>
      PAYLOAD_TYPES.has(m.messageType) &&
      (m.messageContent.eventContent?.eventJson ?? '') !== '' &&
      (m.endpointId === endpointId || m.to === endpointId),
  );
  return candidates.at(-1) ?? null;
}

/** Bus-internal hops are not producers: a row's own `from` is the last hop (often the Resolver). */
const NOT_A_PRODUCER = new Set<string>(Object.values(Addresses));

function producerOf(request: MessageEntity | undefined, originatingFrom: string | null): string | null {
  for (const candidate of [request?.originatingFrom, request?.from, originatingFrom])
    if (candidate && !NOT_A_PRODUCER.has(candidate)) return candidate;
  return null;
}

/** Endpoint ids compare case-insensitively, like the catalog's. */
const sameEndpoint = (actual: string | null | undefined, endpointId: string) =>
  actual?.toLowerCase() === endpointId.toLowerCase();

/** Which actions the event's status allows (the server re-checks every one). */
export function allowedActions(status: string, pendingSubStatus: string | null): string[] {
  switch (status) {
    case ResolutionStatus.Failed:
    case ResolutionStatus.DeadLettered:
    case ResolutionStatus.Unsupported:
      return ['resubmit', 'resubmitWithChanges', 'skip', 'delete'];
    case ResolutionStatus.Deferred:
      return ['reprocessDeferred', 'delete'];
    case ResolutionStatus.Pending:
      return pendingSubStatus === HANDOFF_SUB_STATUS
        ? ['completeHandoff', 'failHandoff', 'reconcile']
        : ['reconcile', 'delete'];
    default:
      return [];
  }
}

export function eventRoutes(deps: ApiDeps): AnyRouteSpec[] {
  const { store, catalog, auditLog } = deps;

  return [
    defineRoute({
      method: 'GET',
      url: '/api/endpoints/:endpointId/events',
      tag: 'Event',
      summary: 'Search the events of an endpoint (newest update first, paged with a continuation token)',
      access: 'authenticated',
      params: EndpointParams,
      query: z.object({
        ...eventSearchQueryFields,
        from: z.string().max(200).optional(),
        to: z.string().max(200).optional(),
        failureSignature: z.string().max(400).optional(),
      }),
      response: z.object({
        events: z.array(EventDto.extend({ resubmitCount: z.number() })),
        continuationToken: z.string().nullable(),
      }),
      handler: async ({ params, query, principal }) => {
        const endpointId = await catalog.canonical(params.endpointId);
        await authorize(auditLog, principal!, Role.Reader, endpointId);
        const result = await store.getEventsByFilter({
          filter: {
            ...eventFilterFromQuery(query, endpointId),
            from: query.from || null,
            to: query.to || null,
            failureSignature: query.failureSignature || null,
          },
          continuationToken: query.continuationToken ?? null,
          maxItems: query.pageSize,
        });
        const counts = await store.getResubmitCounts({
          endpointId,
          eventIds: result.events.map((e) => e.eventId),
        });
        return {
          events: result.events.map((e) => ({ ...eventDto(e), resubmitCount: counts.get(e.eventId) ?? 0 })),
          continuationToken: result.continuationToken,
        };
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/endpoints/:endpointId/events/:eventId',
      tag: 'Event',
      summary:
        'One event with its payload (the latest request that carried one) and the actions its status allows',
      access: 'authenticated',
      params: EventParams,
      response: z.object({
        event: EventDto,
        payload: z.string().nullable(),
        payloadEventTypeId: z.string().nullable(),
        allowedActions: z.array(z.string()),
        blockedCount: z.number(),
        /** The payload the event was first published with (null when it is not in the history). */
        originalPayload: z.string().nullable(),
        /** The endpoint that published the event (from its EventRequest), not the last hop. */
        producer: z.string().nullable(),
        /** The failure group of a Failed or DeadLettered event (`GET /api/failure-groups?signature=`). */
        failureSignature: z.string().nullable(),
      }),
      handler: async ({ params, principal }) => {
        const endpointId = await catalog.canonical(params.endpointId);
        await authorize(auditLog, principal!, Role.Reader, endpointId);
        const row = await store.getEvent({ endpointId, eventId: params.eventId });
        if (!row) throw notFound(`Event '${params.eventId}' not found on endpoint '${endpointId}'.`);
        const history = await store.getEventHistory(row.eventId);
        const payloadMessage = latestPayloadMessage(history, endpointId);
        const originalRequest = history.find(
          (m) =>
            m.messageType === MessageType.EventRequest &&
            (m.endpointId === endpointId || m.to === endpointId),
        );
        const content = payloadMessage?.messageContent.eventContent ?? row.messageContent.eventContent;
        const blocked = await store.getBlockedEventsOnSession({
          endpointId,
          sessionId: row.sessionId,
          skip: 0,
          take: 1,
        });
        return {
          event: eventDto(row),
          payload: content?.eventJson ?? null,
          payloadEventTypeId: content?.eventTypeId ?? row.eventTypeId,
          allowedActions: allowedActions(row.resolutionStatus, row.pendingSubStatus),
          blockedCount: blocked.total,
          originalPayload: originalRequest?.messageContent.eventContent?.eventJson || null,
          producer: producerOf(originalRequest, row.originatingFrom),
          failureSignature: rowFailureSignature(row),
        };
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/endpoints/:endpointId/events/:eventId/history',
      tag: 'Event',
      summary: 'The messages of the event at this endpoint, newest first',
      access: 'authenticated',
      params: EventParams,
      response: z.array(MessageDto),
      handler: async ({ params, principal }) => {
        const endpointId = await catalog.canonical(params.endpointId);
        await authorize(auditLog, principal!, Role.Reader, endpointId);
        const history = await store.getEventHistory(params.eventId);
        // Only the copies recorded at this endpoint: another endpoint's copy of the same event (even one
        // this endpoint sent) is that endpoint's data.
        return history
          .filter((m) => sameEndpoint(m.endpointId, endpointId))
          .reverse()
          .map(messageDto);
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/endpoints/:endpointId/events/:eventId/audits',
      tag: 'Event',
      summary: 'Operator audit rows of the event, newest first',
      access: 'authenticated',
      params: EventParams,
      response: z.array(AuditDto),
      handler: async ({ params, principal }) => {
        const endpointId = await catalog.canonical(params.endpointId);
        await authorize(auditLog, principal!, Role.Reader, endpointId);
        const audits = await store.getMessageAudits(params.eventId);
        return audits
          .filter((a) => sameEndpoint(a.endpointId, endpointId))
          .map(auditDto)
          .reverse();
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/messages',
      tag: 'Message',
      summary: 'Search the message history of every endpoint (site Reader)',
      access: 'authenticated',
      query: z.object({
        endpointId: z.string().max(200).optional(),
        eventId: z.string().max(200).optional(),
        messageId: z.string().max(200).optional(),
        sessionId: z.string().max(200).optional(),
        eventTypeId: commaList,
        from: z.string().max(200).optional(),
        to: z.string().max(200).optional(),
        messageType: z.enum(Object.values(MessageType) as [MessageType, ...MessageType[]]).optional(),
        pageSize: z.coerce.number().int().min(1).max(200).default(50),
        continuationToken: z.string().max(2000).optional(),
      }),
      response: z.object({ messages: z.array(MessageDto), continuationToken: z.string().nullable() }),
      handler: async ({ query, principal }) => {
        await authorize(auditLog, principal!, Role.Reader, null);
        const result = await store.searchMessages({
          filter: {
            endpointId: query.endpointId || null,
            eventId: query.eventId || null,
            messageId: query.messageId || null,
            sessionId: query.sessionId || null,
            eventTypeId: query.eventTypeId.length > 0 ? query.eventTypeId : null,
            from: query.from || null,
            to: query.to || null,
            messageType: query.messageType ?? null,
          },
          continuationToken: query.continuationToken ?? null,
          maxItems: query.pageSize,
        });
        return { messages: result.messages.map(messageDto), continuationToken: result.continuationToken };
      },
    }),
  ];
}
