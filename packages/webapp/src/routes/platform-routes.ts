import { topologyFromPlatform } from '@nimbus/core';
import { z } from 'zod';
import type { ApiDeps } from '../app/api-deps.js';
import { authorize } from '../auth/authorize.js';
import { notSupported } from '../http/http-error.js';
import { type AnyRouteSpec, defineRoute } from '../http/route.js';
import { Role } from '../identity/roles.js';
import { AUDIT_TYPE_OF } from '../operator/audit-types.js';

export function platformRoutes(deps: ApiDeps): AnyRouteSpec[] {
  const { platform, provider, auditLog, catalog, transport } = deps;
  return [
    defineRoute({
      method: 'GET',
      url: '/api/app/status',
      tag: 'Application',
      summary: 'Environment, storage provider and its capabilities (fields are null when signed out)',
      access: 'anonymous',
      response: z.object({
        environment: z.string().nullable(),
        version: z.string().nullable(),
        storageProvider: z.string().nullable(),
        transport: z.string().nullable(),
        capabilities: z.object({ supportsCrossAccountCopy: z.boolean() }).nullable(),
      }),
      handler: async ({ principal }) =>
        principal
          ? {
              environment: deps.environment,
              version: deps.version,
              storageProvider: provider.name,
              transport: transport.name,
              capabilities: { supportsCrossAccountCopy: provider.capabilities.supportsCrossAccountCopy },
            }
          : { environment: null, version: null, storageProvider: null, transport: null, capabilities: null },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/topology',
      tag: 'Topology',
      summary: 'Endpoints, event types and producer → consumer routes of the platform (site Reader)',
      access: 'authenticated',
      response: z.object({
        endpoints: z.array(
          z.object({
            id: z.string(),
            description: z.string().nullable(),
            produces: z.array(z.string()),
            consumes: z.array(z.string()),
          }),
        ),
        eventTypes: z.array(
          z.object({ id: z.string(), kind: z.string(), description: z.string().nullable() }),
        ),
        routes: z.array(z.object({ source: z.string(), eventTypeId: z.string(), target: z.string() })),
      }),
      handler: async ({ principal }) => {
        await authorize(auditLog, principal!, Role.Reader, null);
        if (!platform) {
          return {
            endpoints: (await catalog.list()).map((id) => ({
              id,
              description: null,
              produces: [],
              consumes: [],
            })),
            eventTypes: [],
            routes: [],
          };
        }
        return {
          endpoints: platform.endpoints.map((e) => ({
            id: e.id,
            description: e.description,
            produces: e.produces.map((t) => t.id),
            consumes: e.consumes.map((t) => t.id),
          })),
          eventTypes: platform.eventTypes.map((t) => ({
            id: t.id,
            kind: t.kind,
            description: t.description,
          })),
          routes: [...topologyFromPlatform(platform).routes],
        };
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/api/operations/copy-endpoint-data',
      tag: 'Operations',
      summary:
        'Copy an endpoint’s stored events to another store (only providers with cross-account copy; site Owner)',
      access: 'authenticated',
      body: z.object({ endpointId: z.string().min(1).max(200), target: z.string().min(1).max(2000) }),
      response: z.object({ eventsCopied: z.number() }),
      handler: async ({ body, principal }) => {
        // Authorised before the endpoint is looked up, so a refusal does not tell which endpoints exist.
        // The target (a connection string) is a secret: it never goes into the audit row.
        await authorize(auditLog, principal!, Role.Owner, null, {
          type: AUDIT_TYPE_OF.copyEndpointData,
          data: { action: 'copyEndpointData', endpointId: body.endpointId },
        });
        await catalog.canonical(body.endpointId);
        throw notSupported(
          `Copy endpoint data is not supported by this provider ('${provider.name}'); use the database's own backup and restore tools.`,
        );
      },
    }),
  ];
}
