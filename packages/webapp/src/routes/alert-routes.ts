import { MessageAuditType } from '@nimbus/message-store';
import { z } from 'zod';
import { AlertTrigger } from '../alerts/alert-store.js';
import { type AlertSubscription, isAlertSubscription } from '../alerts/alert-subscriptions.js';
import { webhookUrlProblem } from '../alerts/webhook-destination.js';
import type { ApiDeps } from '../app/api-deps.js';
import { authorize } from '../auth/authorize.js';
import { EndpointParams } from '../http/dto.js';
import { HttpError, notFound } from '../http/http-error.js';
import { type AnyRouteSpec, defineRoute } from '../http/route.js';
import { Role } from '../identity/roles.js';
import {
  AlertSubscriptionDto,
  alertSubscriptionDto,
  DeliveryDto,
  deliveryDto,
  maskedUrl,
} from './alert-dto.js';

const TRIGGERS = [
  AlertTrigger.NewFailureGroup,
  AlertTrigger.SessionBlocked,
  AlertTrigger.HeartbeatLost,
  AlertTrigger.MonitoringThreshold,
  AlertTrigger.CustomCheckFailed,
] as const;
const SubscriptionParams = EndpointParams.extend({ subscriptionId: z.string().min(1).max(100) });

const NewSubscription = z.object({
  channel: z.enum(['webhook', 'mail']),
  /** Webhook target (http or https). */
  url: z
    .url({ protocol: /^https?$/ })
    .max(2000)
    .optional(),
  /** The shared secret deliveries are signed with; kept by the store, never shown again. */
  secret: z.string().min(16).max(200).optional(),
  mail: z.email().max(320).optional(),
  triggers: z.array(z.enum(TRIGGERS)).min(1).max(TRIGGERS.length),
  blockedMinutes: z.number().int().min(1).max(10_080).default(15),
  eventTypes: z.array(z.string().min(1).max(200)).max(50).default([]),
  /** Only failures whose payload or error text contains this. */
  payload: z.string().max(200).default(''),
  /** Minutes between two updates of one alert whose counts change (default: the WebApp's, 5). */
  digestMinutes: z.number().int().min(0).max(1_440).optional(),
  /** Deliveries per hour at most (default: the WebApp's, 30); the rest wait, updates coalesce. */
  maxPerHour: z.number().int().min(1).max(3_600).optional(),
});

function invalid(path: string, message: string): HttpError {
  return new HttpError(400, 'ValidationError', `${path}: ${message}`, [{ path, message }]);
}

/**
 * Alert subscriptions, kept in the store's endpoint subscriptions, and their deliveries. Managing them needs
 * the Owner role on the endpoint; reading them the Reader role. Secrets never leave the server.
 */
export function alertRoutes(deps: ApiDeps): AnyRouteSpec[] {
  const { store, auditLog, catalog, alerting, clock } = deps;
  const find = async (endpointId: string, subscriptionId: string): Promise<AlertSubscription> => {
    const found = (await store.getSubscriptionsOnEndpoint(endpointId))
      .filter(isAlertSubscription)
      .find((s) => s.id === subscriptionId);
    if (!found)
      throw notFound(`Alert subscription '${subscriptionId}' not found on endpoint '${endpointId}'.`);
    return found;
  };
  const withLastDelivery = async (s: AlertSubscription) =>
    alertSubscriptionDto(s, (await alerting.store.listDeliveries(s.id, 1))[0] ?? null);

  return [
    defineRoute({
      method: 'GET',
      url: '/api/alert-subscriptions',
      tag: 'Alerts',
      summary: 'Alert subscriptions of every endpoint the caller may read, each with its last delivery',
      access: 'authenticated',
      response: z.object({ mailConfigured: z.boolean(), subscriptions: z.array(AlertSubscriptionDto) }),
      handler: async ({ principal }) => {
        const readable = (await catalog.list()).filter((id) => principal!.has(Role.Reader, id));
        const all = (await Promise.all(readable.map((id) => store.getSubscriptionsOnEndpoint(id)))).flat();
        return {
          mailConfigured: alerting.mailConfigured,
          subscriptions: await Promise.all(all.filter(isAlertSubscription).map(withLastDelivery)),
        };
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/api/endpoints/:endpointId/alert-subscriptions',
      tag: 'Alerts',
      summary:
        'Subscribe a webhook (signed with a shared secret) or an e-mail address to alerts (endpoint Owner)',
      access: 'authenticated',
      params: EndpointParams,
      body: NewSubscription,
      response: AlertSubscriptionDto,
      successStatus: 201,
      handler: async ({ params, body, principal }) => {
        const endpointId = await catalog.canonical(params.endpointId);
        // The audit row (and its log line) names the webhook's origin only: a url may carry a token.
        const target = body.channel === 'webhook' ? { url: maskedUrl(body.url ?? '') } : { mail: body.mail };
        const data = { action: 'subscribe', channel: body.channel, ...target, triggers: body.triggers };
        await authorize(auditLog, principal!, Role.Owner, endpointId, {
          type: MessageAuditType.ManageSubscription,
          data,
        });
        if (body.channel === 'webhook') {
          if (!body.url) throw invalid('body.url', 'a webhook subscription needs the url to post to');
          const problem = webhookUrlProblem(body.url, alerting.allowPrivateWebhookTargets);
          if (problem) throw invalid('body.url', problem);
          if (!body.secret)
            throw invalid('body.secret', 'a webhook subscription needs a shared secret (16+ characters)');
        } else {
          if (!body.mail) throw invalid('body.mail', 'an e-mail subscription needs the address');
          if (!alerting.mailConfigured)
            throw invalid('body.channel', 'e-mail alerts need SMTP, and this WebApp has none configured');
        }
        await auditLog.write({
          type: MessageAuditType.ManageSubscription,
          principal: principal!,
          endpointId,
          data,
        });
        const created = await store.subscribeToEndpointNotification({
          endpointId,
          type: body.channel,
          mail: body.channel === 'mail' ? (body.mail ?? '') : '',
          url: body.channel === 'webhook' ? (body.url ?? '') : '',
          author: principal!.user.id,
          eventTypes: body.eventTypes,
          payload: body.payload,
          frequency: 0,
          alert: {
            triggers: body.triggers,
            blockedMinutes: body.blockedMinutes,
            digestMinutes: body.digestMinutes ?? null,
            maxPerHour: body.maxPerHour ?? null,
            webhookSecret: body.channel === 'webhook' ? (body.secret ?? null) : null,
            createdAt: new Date(clock.now()).toISOString(),
          },
        });
        return withLastDelivery(created as AlertSubscription);
      },
    }),
    defineRoute({
      method: 'DELETE',
      url: '/api/endpoints/:endpointId/alert-subscriptions/:subscriptionId',
      tag: 'Alerts',
      summary: 'Delete an alert subscription (endpoint Owner)',
      access: 'authenticated',
      params: SubscriptionParams,
      handler: async ({ params, principal }) => {
        const endpointId = await catalog.canonical(params.endpointId);
        const data = { action: 'unsubscribe', subscriptionId: params.subscriptionId };
        await authorize(auditLog, principal!, Role.Owner, endpointId, {
          type: MessageAuditType.ManageSubscription,
          data,
        });
        await find(endpointId, params.subscriptionId);
        await auditLog.write({
          type: MessageAuditType.ManageSubscription,
          principal: principal!,
          endpointId,
          data,
        });
        await store.unsubscribeById({ endpointId, id: params.subscriptionId });
        return undefined;
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/api/endpoints/:endpointId/alert-subscriptions/:subscriptionId/test',
      tag: 'Alerts',
      summary: 'Queue a test alert for the subscription; it is sent like any other (endpoint Owner)',
      access: 'authenticated',
      params: SubscriptionParams,
      response: z.object({ queued: z.boolean() }),
      successStatus: 202,
      handler: async ({ params, principal }) => {
        const endpointId = await catalog.canonical(params.endpointId);
        const data = { action: 'test', subscriptionId: params.subscriptionId };
        await authorize(auditLog, principal!, Role.Owner, endpointId, {
          type: MessageAuditType.ManageSubscription,
          data,
        });
        const subscription = await find(endpointId, params.subscriptionId);
        await auditLog.write({
          type: MessageAuditType.ManageSubscription,
          principal: principal!,
          endpointId,
          data,
        });
        const now = clock.now();
        const queued = await alerting.evaluator.claim(
          subscription,
          {
            key: `test:${now}`,
            trigger: AlertTrigger.Test,
            endpointId,
            summary: `Test alert for ${endpointId}, sent by ${principal!.name}`,
            details: {},
          },
          now,
        );
        // Sent now rather than at the next round; a failure is recorded on the delivery and retried.
        void alerting
          .runOnce()
          .catch((error: Error) =>
            deps.logger.warn({ err: error.message }, 'Alert round after a test request failed'),
          );
        return { queued };
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/endpoints/:endpointId/alert-subscriptions/:subscriptionId/deliveries',
      tag: 'Alerts',
      summary:
        'The newest deliveries of an alert subscription with every attempt and its error (endpoint Reader)',
      access: 'authenticated',
      params: SubscriptionParams,
      response: z.array(DeliveryDto),
      handler: async ({ params, principal }) => {
        const endpointId = await catalog.canonical(params.endpointId);
        await authorize(auditLog, principal!, Role.Reader, endpointId);
        await find(endpointId, params.subscriptionId);
        return (await alerting.store.listDeliveries(params.subscriptionId, 50)).map(deliveryDto);
      },
    }),
  ];
}
