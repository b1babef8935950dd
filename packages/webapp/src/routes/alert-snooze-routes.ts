import { MessageAuditType } from '@nimbus/message-store';
import { z } from 'zod';
import type { AlertSnooze } from '../alerts/alert-thread.js';
import type { ApiDeps } from '../app/api-deps.js';
import { authorize } from '../auth/authorize.js';
import { EndpointParams } from '../http/dto.js';
import { notFound } from '../http/http-error.js';
import { type AnyRouteSpec, defineRoute } from '../http/route.js';
import { Role } from '../identity/roles.js';

const Signature = z
  .string()
  .min(1)
  .max(400)
  .describe("The failure signature (a failure group's `signature`)");

export const AlertSnoozeDto = z.object({
  endpointId: z.string(),
  signature: Signature,
  until: z.string().describe('ISO-8601 UTC: alerts of this cause wait until then'),
  by: z.string(),
  comment: z.string().nullable(),
  createdAt: z.string(),
});

const snoozeDto = (s: AlertSnooze): z.input<typeof AlertSnoozeDto> => ({
  ...s,
  until: new Date(s.until).toISOString(),
  createdAt: new Date(s.createdAt).toISOString(),
});

/**
 * Silence one cause (endpoint + failure signature) for a while: its alerts (new, updated, resolved, and the
 * sessions it blocks) wait until the snooze ends, then the current state is sent. Contributor on the endpoint;
 * snoozing and ending a snooze each write a `ManageSubscription` audit row.
 */
export function alertSnoozeRoutes(deps: ApiDeps): AnyRouteSpec[] {
  const { auditLog, catalog, alerting, clock } = deps;
  return [
    defineRoute({
      method: 'GET',
      url: '/api/endpoints/:endpointId/alert-snoozes',
      tag: 'Alerts',
      summary: 'The causes of one endpoint whose alerts are snoozed now (endpoint Reader)',
      access: 'authenticated',
      params: EndpointParams,
      response: z.array(AlertSnoozeDto),
      handler: async ({ params, principal }) => {
        const endpointId = await catalog.canonical(params.endpointId);
        await authorize(auditLog, principal!, Role.Reader, endpointId);
        const all = await alerting.store.listSnoozes(clock.now());
        return all.filter((s) => s.endpointId === endpointId).map(snoozeDto);
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/api/endpoints/:endpointId/alert-snoozes',
      tag: 'Alerts',
      summary: 'Snooze the alerts of one failure cause for some minutes (endpoint Contributor, audited)',
      access: 'authenticated',
      params: EndpointParams,
      body: z.object({
        signature: Signature,
        minutes: z.number().int().min(1).max(10_080),
        comment: z.string().max(500).optional(),
      }),
      response: AlertSnoozeDto,
      successStatus: 201,
      handler: async ({ params, body, principal }) => {
        const endpointId = await catalog.canonical(params.endpointId);
        const now = clock.now();
        const snooze: AlertSnooze = {
          endpointId,
          signature: body.signature,
          until: now + body.minutes * 60_000,
          by: principal!.name,
          comment: body.comment ?? null,
          createdAt: now,
        };
        const data = {
          action: 'snooze',
          signature: body.signature,
          minutes: body.minutes,
          comment: body.comment ?? null,
        };
        await authorize(auditLog, principal!, Role.Contributor, endpointId, {
          type: MessageAuditType.ManageSubscription,
          data,
        });
        await auditLog.write({
          type: MessageAuditType.ManageSubscription,
          principal: principal!,
          endpointId,
          data,
        });
        await alerting.store.snooze(snooze);
        return snoozeDto(snooze);
      },
    }),
    defineRoute({
      method: 'DELETE',
      url: '/api/endpoints/:endpointId/alert-snoozes',
      tag: 'Alerts',
      summary: 'End the snooze of one failure cause now (endpoint Contributor, audited)',
      access: 'authenticated',
      params: EndpointParams,
      query: z.object({ signature: Signature }),
      handler: async ({ params, query, principal }) => {
        const endpointId = await catalog.canonical(params.endpointId);
        const data = { action: 'unsnooze', signature: query.signature };
        await authorize(auditLog, principal!, Role.Contributor, endpointId, {
          type: MessageAuditType.ManageSubscription,
          data,
        });
        if (!(await alerting.store.unsnooze(endpointId, query.signature)))
          throw notFound(`No snooze of '${query.signature}' on endpoint '${endpointId}'.`);
        await auditLog.write({
          type: MessageAuditType.ManageSubscription,
          principal: principal!,
          endpointId,
          data,
        });
        return undefined;
      },
    }),
  ];
}
