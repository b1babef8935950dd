import { z } from 'zod';
import { CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE } from '../auth/cookies.js';
import type { DocumentedRoute, DocumentedSecurity } from './documented-route.js';
import type { AnyRouteSpec, HttpMethod } from './route.js';

type JsonSchema = Record<string, unknown>;

function toSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  return json;
}

function parametersOf(schema: z.ZodType | undefined, location: 'path' | 'query'): JsonSchema[] {
  if (!schema) return [];
  const json = toSchema(schema, 'input');
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || required.has(name),
    schema: property,
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
  }));
}

const ERROR_RESPONSE = {
  description: 'Error',
  content: {
    'application/json': {
      schema: {
        type: 'object',
        properties: {
          error: { type: 'string' },
          message: { type: 'string' },
          issues: {
            type: 'array',
            items: {
              type: 'object',
              properties: { path: { type: 'string' }, message: { type: 'string' } },
              required: ['path', 'message'],
            },
          },
        },
        required: ['error', 'message'],
      },
    },
  },
};

const SECURITY_SCHEMES = {
  sessionCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description: `Set by POST /account/login (HttpOnly, SameSite=Strict). POST, PUT and DELETE with this cookie also need the ${CSRF_HEADER} header.`,
  },
  csrfHeader: {
    type: 'apiKey',
    in: 'header',
    name: CSRF_HEADER,
    description: `The value of the ${CSRF_COOKIE} cookie set at sign-in; required on POST, PUT and DELETE made with the session cookie.`,
  },
  apiToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'A personal API token (nimbus_pat_…) from POST /api/account/tokens; no CSRF header needed.',
  },
  webhookKey: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Webhook-Key',
    description: 'The storage-hook key the WebApp was started with (storageHookKey).',
  },
  metricsToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      'NIMBUS_METRICS_TOKEN, when the WebApp was started with one; an API token or a session with a site role also reads /metrics.',
  },
};

const UNSAFE_METHODS = new Set<HttpMethod>(['POST', 'PUT', 'DELETE']);

function securityOf(kind: DocumentedSecurity, method: HttpMethod): { security?: unknown[] } {
  switch (kind) {
    case 'anonymous':
      // Explicitly public (an empty requirement list), so that no reader takes a missing one for an oversight.
      return { security: [] };
    case 'session':
      return {
        security: [
          UNSAFE_METHODS.has(method) ? { sessionCookie: [], csrfHeader: [] } : { sessionCookie: [] },
          { apiToken: [] },
        ],
      };
    case 'webhookKey':
      return { security: [{ webhookKey: [] }] };
    case 'metricsToken':
      return { security: [{ metricsToken: [] }, { apiToken: [] }, { sessionCookie: [] }] };
  }
}

function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function operationIdOf(method: HttpMethod, path: string): string {
  const words = path
    .replace(/[{}]/g, '')
    .replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''));
  return `${method.toLowerCase()}${words}`;
}

function errorResponses(security: DocumentedSecurity): Record<string, unknown> {
  return {
    '400': ERROR_RESPONSE,
    ...(security === 'anonymous' ? {} : { '401': ERROR_RESPONSE }),
    ...(security === 'session' ? { '403': ERROR_RESPONSE } : {}),
    '404': ERROR_RESPONSE,
  };
}

function specOperation(route: AnyRouteSpec): Record<string, unknown> {
  const security: DocumentedSecurity = route.access === 'authenticated' ? 'session' : 'anonymous';
  const success = String(route.successStatus ?? (route.response ? 200 : 204));
  return {
    tags: [route.tag],
    summary: route.summary,
    operationId: operationIdOf(route.method, openApiPath(route.url)),
    parameters: [...parametersOf(route.params, 'path'), ...parametersOf(route.query, 'query')],
    responses: {
      [success]: route.response
        ? {
            description: 'OK',
            content: { 'application/json': { schema: toSchema(route.response, 'output') } },
          }
        : { description: 'No content' },
      ...errorResponses(security),
    },
    ...securityOf(security, route.method),
    ...(route.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: toSchema(route.body, 'input') } },
          },
        }
      : {}),
  };
}

function documentedOperation(route: DocumentedRoute): Record<string, unknown> {
  const { success } = route;
  const content = success.contentType
    ? {
        content: {
          [success.contentType]: { schema: success.schema ? toSchema(success.schema, 'output') : {} },
        },
      }
    : {};
  const others = Object.fromEntries(
    Object.entries(route.otherResponses ?? {}).map(([status, description]) => [status, { description }]),
  );
  return {
    tags: [route.tag],
    summary: route.summary,
    operationId: operationIdOf(route.method, openApiPath(route.url)),
    parameters: parametersOf(route.params, 'path'),
    responses: {
      [String(success.status)]: { description: success.description, ...content },
      ...(route.security === 'anonymous' ? {} : { '401': ERROR_RESPONSE }),
      ...others,
    },
    ...securityOf(route.security, route.method),
  };
}

/**
 * Builds the OpenAPI 3.1 document: the registered API routes from their zod schemas, and the routes
 * registered on Fastify directly (live stream, probes, the document itself) from their descriptions.
 */
export function buildOpenApiDocument(
  routes: readonly AnyRouteSpec[],
  info: { title: string; version: string },
  documented: readonly DocumentedRoute[] = [],
) {
  const paths: Record<string, Record<string, unknown>> = {};
  const add = (method: HttpMethod, url: string, operation: Record<string, unknown>) => {
    const path = openApiPath(url);
    paths[path] ??= {};
    paths[path][method.toLowerCase()] = operation;
  };
  for (const route of routes) add(route.method, route.url, specOperation(route));
  for (const route of documented) add(route.method, route.url, documentedOperation(route));
  return {
    openapi: '3.1.0',
    info: { ...info, license: { name: 'MIT', identifier: 'MIT' } },
    // Relative: every WebApp serves its own document, so the URL it was fetched from is the server.
    servers: [{ url: '/', description: 'The WebApp that serves this document' }],
    components: { securitySchemes: usedSchemes(paths) },
    paths,
  };
}

/** The security schemes some operation uses (`metricsToken` only when `/metrics` wants a token). */
function usedSchemes(paths: Record<string, Record<string, unknown>>): Partial<typeof SECURITY_SCHEMES> {
  const used = new Set(
    Object.values(paths).flatMap((operations) =>
      Object.values(operations).flatMap((operation) =>
        ((operation as { security?: Record<string, unknown>[] }).security ?? []).flatMap((r) =>
          Object.keys(r),
        ),
      ),
    ),
  );
  return Object.fromEntries(Object.entries(SECURITY_SCHEMES).filter(([name]) => used.has(name)));
}
