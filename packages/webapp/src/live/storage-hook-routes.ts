import type { StateChange } from '@nimbus/message-store';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { sameToken } from '../auth/tokens.js';
import type { DocumentedRoute } from '../http/documented-route.js';
import { unauthorized } from '../http/http-error.js';
import type { LiveUpdateHub } from './live-update-hub.js';

const HOOKS = [
  ['endpoint', 'an endpoint'],
  ['heartbeat', "an endpoint's heartbeat"],
  ['servicehealth', "a platform service's health"],
] as const;

export const STORAGE_HOOK_ROUTE_DOCS: readonly DocumentedRoute[] = HOOKS.map(([kind, what]) => ({
  method: 'POST',
  url: `/api/storagehook/${kind}/:id`,
  tag: 'Live',
  summary: `Tells the live stream that ${what} changed (for a Resolver in another process)`,
  security: 'webhookKey',
  params: z.object({ id: z.string() }),
  success: { status: 204, description: 'Sent to the connected browsers' },
}));

/**
 * `POST /api/storagehook/{endpoint|heartbeat|servicehealth}/:id` with header `X-Webhook-Key`: lets a Resolver
 * in another process feed the SSE stream. Registered only when a key is configured.
 */
export function registerStorageHookRoutes(app: FastifyInstance, hub: LiveUpdateHub, key: string): void {
  const check = (header: unknown) => {
    if (typeof header !== 'string' || !sameToken(header, key))
      throw unauthorized('Missing or wrong X-Webhook-Key.');
  };
  const changeOf: Record<(typeof HOOKS)[number][0], (id: string) => StateChange> = {
    endpoint: (endpointId) => ({ kind: 'endpoint', endpointId }),
    heartbeat: (endpointId) => ({ kind: 'heartbeat', endpointId }),
    servicehealth: (serviceId) => ({ kind: 'serviceHealth', serviceId }),
  };
  for (const [kind] of HOOKS) {
    app.post<{ Params: { id: string } }>(`/api/storagehook/${kind}/:id`, async (request, reply) => {
      check(request.headers['x-webhook-key']);
      await hub.notify(changeOf[kind](request.params.id));
      return reply.code(204).send();
    });
  }
}
