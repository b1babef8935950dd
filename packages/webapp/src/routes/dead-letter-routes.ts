import { type DeadLetteredMessage, Header, RESOLVER_INPUT } from '@nimbus/core';
import { MessageAuditType } from '@nimbus/message-store';
import { z } from 'zod';
import type { ApiDeps } from '../app/api-deps.js';
import { authorize } from '../auth/authorize.js';
import type { Principal } from '../auth/principal.js';
import { conflict, notFound } from '../http/http-error.js';
import { type AnyRouteSpec, defineRoute } from '../http/route.js';
import { Role } from '../identity/roles.js';

/**
 * The transport's own dead-letter lists: messages the transport or the engine could not deliver as events
 * (unreadable, no message type or event id, max delivery count, settlement refused), which the message store
 * may never have seen. One list per endpoint input, plus the Resolver's. Reads need Reader on the endpoint
 * (site-wide for the Resolver), requeue Contributor, purge Owner; every action writes one audit row.
 */

/** How many dead letters one list or lookup reads from the transport at most. */
export const MAX_DEAD_LETTERS = 500;

const InputParams = z.object({ input: z.string().min(1).max(200) });
const DeadLetterParams = InputParams.extend({ deadLetterId: z.string().min(1).max(200) });

const DeadLetterSummary = z.object({
  id: z.string(),
  input: z.string(),
  messageId: z.string(),
  sessionId: z.string(),
  correlationId: z.string().nullable(),
  messageType: z.string().nullable(),
  eventId: z.string().nullable(),
  eventTypeId: z.string().nullable(),
  from: z.string().nullable(),
  reason: z.string(),
  description: z.string().nullable(),
  deliveryCount: z.number(),
  deadLetteredAt: z.string(),
  bodyBytes: z.number(),
  unreadable: z
    .string()
    .nullable()
    .describe('why the stored message cannot be read back (its headers are empty then); requeue leaves it'),
});

const DeadLetterDetails = DeadLetterSummary.extend({
  headers: z.record(z.string(), z.string()),
  body: z.string(),
});

function summaryOf(dead: DeadLetteredMessage) {
  const header = (name: string) => dead.headers[name] ?? null;
  return {
    id: dead.id,
    input: dead.input,
    messageId: dead.messageId,
    sessionId: dead.sessionId,
    correlationId: dead.correlationId,
    messageType: header(Header.MessageType),
    eventId: header(Header.EventId),
    eventTypeId: header(Header.EventTypeId),
    from: header(Header.From),
    reason: dead.reason,
    description: dead.description,
    deliveryCount: dead.deliveryCount,
    deadLetteredAt: dead.deadLetteredAt.toISOString(),
    bodyBytes: Buffer.byteLength(dead.body, 'utf8'),
    unreadable: dead.unreadable ?? null,
  };
}

/** The key audit rows of an input's dead-letter actions are filed under (they concern no single event). */
export function auditKeyOf(input: string): string {
  return `dead-letters/${input}`;
}

export function deadLetterRoutes(deps: ApiDeps): AnyRouteSpec[] {
  const { transport, catalog, auditLog } = deps;

  /** The input's canonical name and the endpoint its roles are checked on (`null`: site-wide, the Resolver). */
  const resolveInput = async (input: string) => {
    if (input.toLowerCase() === RESOLVER_INPUT.toLowerCase())
      return { input: RESOLVER_INPUT, endpointId: null };
    const endpointId = await catalog.canonical(input);
    return { input: endpointId, endpointId };
  };

  const allow = async (
    principal: Principal,
    role: Role,
    target: { input: string; endpointId: string | null },
    type: MessageAuditType,
    data: unknown,
  ) =>
    authorize(auditLog, principal, role, target.endpointId, {
      type,
      eventId: auditKeyOf(target.input),
      data,
    });

  const find = async (input: string, id: string) => {
    const found = (await transport.peekDeadLetters(input, MAX_DEAD_LETTERS)).find((d) => d.id === id);
    if (!found)
      throw notFound(
        `No dead letter '${id}' at '${input}' (requeued, purged, or older than the newest ${MAX_DEAD_LETTERS}).`,
      );
    return found;
  };

  const audit = (
    principal: Principal,
    type: MessageAuditType,
    target: { input: string; endpointId: string | null },
    data: unknown,
  ) =>
    auditLog.write({
      type,
      principal,
      eventId: auditKeyOf(target.input),
      endpointId: target.endpointId,
      data,
    });

  /** Runs an audited action; when it fails after its row was written, a second row says it failed. */
  const attempt = async <T>(
    principal: Principal,
    type: MessageAuditType,
    target: { input: string; endpointId: string | null },
    data: Record<string, unknown>,
    action: () => Promise<T>,
  ): Promise<T> => {
    try {
      return await action();
    } catch (error) {
      await audit(principal, type, target, { ...data, outcome: 'failed', error: (error as Error).message });
      throw error;
    }
  };

  return [
    defineRoute({
      method: 'GET',
      url: '/api/dead-letters/:input',
      tag: 'Dead letters',
      summary:
        "The transport's dead-letter list of an endpoint input (or 'Resolver'), oldest first, with reasons",
      access: 'authenticated',
      params: InputParams,
      response: z.object({ input: z.string(), total: z.number(), items: z.array(DeadLetterSummary) }),
      handler: async ({ params, principal }) => {
        const target = await resolveInput(params.input);
        await authorize(auditLog, principal!, Role.Reader, target.endpointId);
        const [items, counts] = await Promise.all([
          transport.peekDeadLetters(target.input, MAX_DEAD_LETTERS),
          transport.counts(target.input),
        ]);
        return { input: target.input, total: counts.deadLettered, items: items.map(summaryOf) };
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/dead-letters/:input/:deadLetterId',
      tag: 'Dead letters',
      summary: 'One dead letter with its headers and body',
      access: 'authenticated',
      params: DeadLetterParams,
      response: DeadLetterDetails,
      handler: async ({ params, principal }) => {
        const target = await resolveInput(params.input);
        await authorize(auditLog, principal!, Role.Reader, target.endpointId);
        const dead = await find(target.input, params.deadLetterId);
        return { ...summaryOf(dead), headers: { ...dead.headers }, body: dead.body };
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/api/dead-letters/:input/requeue',
      tag: 'Dead letters',
      summary: 'Moves dead letters (the given ids, or all) back to the input, into their own sessions',
      access: 'authenticated',
      params: InputParams,
      body: z.object({
        ids: z.array(z.string().min(1).max(200)).max(MAX_DEAD_LETTERS).optional(),
        comment: z.string().max(2000).optional(),
      }),
      response: z.object({
        requeued: z.number(),
        unreadableLeft: z.number().describe('unreadable dead letters the request left where they are'),
      }),
      handler: async ({ params, body, principal }) => {
        const target = await resolveInput(params.input);
        const data = {
          action: 'requeueDeadLetters',
          input: target.input,
          ids: body.ids ?? 'all',
          comment: body.comment,
        };
        await allow(principal!, Role.Contributor, target, MessageAuditType.RequeueDeadLetters, data);
        const wanted = body.ids ? new Set(body.ids) : null;
        const unreadable = (await transport.peekDeadLetters(target.input, MAX_DEAD_LETTERS)).filter(
          (d) => d.unreadable !== undefined && (wanted === null || wanted.has(d.id)),
        );
        if (wanted && unreadable.length > 0) {
          const why = unreadable.map((d) => `'${d.id}': ${d.unreadable}`).join('; ');
          const message = `Cannot requeue unreadable dead letters (${why}); purge them, or requeue the others by id.`;
          await audit(principal!, MessageAuditType.RequeueDeadLetters, target, {
            ...data,
            outcome: 'refused',
            reason: message,
          });
          throw conflict(message);
        }
        // The audit row comes first: if it cannot be written, nothing is requeued.
        await audit(principal!, MessageAuditType.RequeueDeadLetters, target, {
          ...data,
          ...(unreadable.length > 0 ? { unreadableLeft: unreadable.map((d) => d.id) } : {}),
        });
        const requeued = await attempt(principal!, MessageAuditType.RequeueDeadLetters, target, data, () =>
          transport.requeueDeadLetters(target.input, body.ids),
        );
        return { requeued, unreadableLeft: unreadable.length };
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/api/dead-letters/:input/purge',
      tag: 'Dead letters',
      summary:
        "Deletes every dead letter of the input for good (Owner); the store's event rows are not touched",
      access: 'authenticated',
      params: InputParams,
      body: z.object({ comment: z.string().max(2000).optional() }),
      response: z.object({ purged: z.number() }),
      handler: async ({ params, body, principal }) => {
        const target = await resolveInput(params.input);
        const data = { action: 'purgeDeadLetters', input: target.input, comment: body.comment };
        await allow(principal!, Role.Owner, target, MessageAuditType.PurgeDeadLetters, data);
        const { deadLettered } = await transport.counts(target.input);
        // The audit row comes first: if it cannot be written, nothing is purged.
        await audit(principal!, MessageAuditType.PurgeDeadLetters, target, { ...data, deadLettered });
        return {
          purged: await attempt(principal!, MessageAuditType.PurgeDeadLetters, target, data, () =>
            transport.purge(target.input, 'deadLettered'),
          ),
        };
      },
    }),
  ];
}
