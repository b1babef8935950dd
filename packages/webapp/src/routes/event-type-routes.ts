import type { EventType } from '@nimbus/core';
import { z } from 'zod';
import type { ApiDeps } from '../app/api-deps.js';
import { authorize } from '../auth/authorize.js';
import { EndpointParams } from '../http/dto.js';
import { notFound } from '../http/http-error.js';
import { type AnyRouteSpec, defineRoute } from '../http/route.js';
import { Role } from '../identity/roles.js';

interface StandardJsonSchema {
  readonly jsonSchema?: { input(options: { target: string }): Record<string, unknown> };
}

/**
 * The event type's payload schema as JSON Schema (draft 2020-12), from the Standard JSON Schema interface of
 * the schema library (zod 4 implements it); null when the library does not offer one.
 */
function jsonSchemaOf(eventType: EventType): Record<string, unknown> | null {
  const standard = eventType.schema['~standard'] as StandardJsonSchema;
  return standard.jsonSchema ? standard.jsonSchema.input({ target: 'draft-2020-12' }) : null;
}

export function eventTypeRoutes(deps: ApiDeps): AnyRouteSpec[] {
  const { platform, auditLog, catalog } = deps;
  return [
    defineRoute({
      method: 'GET',
      url: '/api/endpoints/:endpointId/event-types/:eventTypeId/schema',
      tag: 'Events',
      summary:
        'JSON Schema of an event type consumed or produced by the endpoint, for validating edited payloads (Reader)',
      access: 'authenticated',
      params: EndpointParams.extend({ eventTypeId: z.string().min(1).max(200) }),
      response: z.object({
        eventTypeId: z.string(),
        jsonSchema: z.record(z.string(), z.unknown()).nullable(),
      }),
      handler: async ({ params, principal }) => {
        const endpointId = await catalog.canonical(params.endpointId);
        await authorize(auditLog, principal!, Role.Reader, endpointId);
        const eventType = platform?.getEventType(params.eventTypeId);
        if (!eventType) {
          throw notFound(
            platform
              ? `Event type '${params.eventTypeId}' is not part of the platform.`
              : 'The WebApp was started without a platform, so event type schemas are unknown.',
          );
        }
        return { eventTypeId: eventType.id, jsonSchema: jsonSchemaOf(eventType) };
      },
    }),
  ];
}
