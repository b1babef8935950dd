import { z } from 'zod';
import type { ApiDeps } from '../app/api-deps.js';
import { EventParams, SessionParams } from '../http/dto.js';
import { badRequest } from '../http/http-error.js';
import { type AnyRouteSpec, defineRoute } from '../http/route.js';
import type { OperatorActions } from '../operator/operator-actions.js';

const ActionResult = z.object({
  action: z.string(),
  endpointId: z.string(),
  eventId: z.string().nullable(),
  sessionId: z.string(),
  messageId: z.string().nullable(),
});

const jsonText = z
  .string()
  .min(1, 'eventJson is required')
  .max(1_000_000)
  .refine((text) => {
    try {
      JSON.parse(text);
      return true;
    } catch {
      return false;
    }
  }, 'eventJson is not valid JSON');

export const MAX_COMMENT_LENGTH = 2000;

const commentText = z
  .string()
  .trim()
  .min(1, 'comment is required')
  .max(MAX_COMMENT_LENGTH, `comment is longer than ${MAX_COMMENT_LENGTH} characters`);

/**
 * The operator's confirmation that a dead-lettered or unsupported event may run after later events of its
 * session (it left the session's order); without it such a resubmit answers 409 OutOfOrderNotAcknowledged.
 */
export const acknowledgeOutOfOrder = z.boolean().optional().default(false);

/** What the operator did or why, kept in the action's audit row; blank means none. */
export const optionalComment = z
  .string()
  .trim()
  .max(MAX_COMMENT_LENGTH, `comment is longer than ${MAX_COMMENT_LENGTH} characters`)
  .nullable()
  .optional()
  .transform((text) => (text ? text : null));

export function actionRoutes(deps: ApiDeps, actions: OperatorActions): AnyRouteSpec[] {
  const { catalog } = deps;

  const eventAction = <B extends z.ZodType | undefined>(spec: {
    url: string;
    summary: string;
    action: Parameters<OperatorActions['authorize']>[1];
    body?: B;
    method?: 'POST' | 'DELETE';
    run: (
      principal: Parameters<OperatorActions['resubmit']>[0],
      row: Awaited<ReturnType<OperatorActions['loadRow']>>,
      body: B extends z.ZodType ? z.output<B> : undefined,
    ) => Promise<z.input<typeof ActionResult>>;
  }) =>
    defineRoute({
      method: spec.method ?? 'POST',
      url: `/api/endpoints/:endpointId/events/:eventId${spec.url}`,
      tag: 'Action',
      summary: spec.summary,
      access: 'authenticated',
      params: EventParams,
      body: spec.body,
      response: ActionResult,
      handler: async ({ params, body, principal }) => {
        const endpointId = await catalog.canonical(params.endpointId);
        await actions.authorize(principal!, spec.action, endpointId, params.eventId, body);
        const row = await actions.loadRow({ endpointId, eventId: params.eventId });
        return spec.run(principal!, row, body as never);
      },
    });

  return [
    eventAction({
      url: '/resubmit',
      summary: 'Resubmit a failed, dead-lettered or unsupported event with its stored payload (Contributor)',
      action: 'resubmit',
      body: z.object({ comment: optionalComment, acknowledgeOutOfOrder }),
      run: (principal, row, body) =>
        actions.resubmit(principal, row, undefined, body.comment, undefined, body.acknowledgeOutOfOrder),
    }),
    eventAction({
      url: '/resubmit-with-changes',
      summary: 'Resubmit an event with an edited payload (Contributor)',
      action: 'resubmitWithChanges',
      body: z.object({
        eventJson: jsonText,
        eventTypeId: z.string().min(1).max(200).optional(),
        comment: optionalComment,
        acknowledgeOutOfOrder,
      }),
      run: (principal, row, { comment, acknowledgeOutOfOrder: acknowledged, ...edited }) =>
        actions.resubmit(principal, row, edited, comment, undefined, acknowledged),
    }),
    eventAction({
      url: '/skip',
      summary: 'Skip a failed event so its session continues (Contributor)',
      action: 'skip',
      body: z.object({ comment: optionalComment }),
      run: (principal, row, body) => actions.skip(principal, row, body.comment),
    }),
    eventAction({
      url: '/comments',
      summary: 'Add an operator comment to the event, kept as a Comment audit row (Contributor)',
      action: 'comment',
      body: z.object({ comment: commentText }),
      run: (principal, row, body) => actions.comment(principal, row, body.comment),
    }),
    eventAction({
      url: '/handoff/complete',
      summary: 'Complete a pending handoff (Contributor)',
      action: 'completeHandoff',
      body: z.object({ note: z.string().max(4000).nullable().optional() }),
      run: (principal, row, body) => actions.completeHandoff(principal, row, body.note ?? null),
    }),
    eventAction({
      url: '/handoff/fail',
      summary: 'Fail a pending handoff with a reason (Contributor)',
      action: 'failHandoff',
      body: z.object({
        reason: z.string().trim().min(1, 'reason is required').max(4000),
        errorType: z.string().max(200).nullable().optional(),
      }),
      run: (principal, row, body) => actions.failHandoff(principal, row, body.reason, body.errorType ?? null),
    }),
    eventAction({
      url: '/reconcile',
      summary: 'Mark a stuck Pending event Completed if it is unchanged since it was read (Contributor)',
      action: 'reconcile',
      body: z.object({ expectedLastMessageId: z.string().max(200).nullable() }),
      run: (principal, row, body) => actions.reconcile(principal, row, body.expectedLastMessageId),
    }),
    eventAction({
      url: '',
      method: 'DELETE',
      summary: 'Remove an event row from the store (Contributor)',
      action: 'deleteEvent',
      run: (principal, row) => actions.deleteEvent(principal, row),
    }),
    defineRoute({
      method: 'POST',
      url: '/api/endpoints/:endpointId/sessions/:sessionId/reprocess-deferred',
      tag: 'Action',
      summary: 'Ask the endpoint to replay the deferred (parked) messages of a session (Contributor)',
      access: 'authenticated',
      params: SessionParams,
      response: ActionResult,
      handler: async ({ params, principal }) => {
        const endpointId = await catalog.canonical(params.endpointId);
        if (params.sessionId === '') throw badRequest('params.sessionId: required');
        await actions.authorize(principal!, 'reprocessDeferred', endpointId, null, {
          sessionId: params.sessionId,
        });
        return actions.reprocessDeferred(principal!, endpointId, params.sessionId);
      },
    }),
  ];
}
