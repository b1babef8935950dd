import { createHash } from 'node:crypto';
import fastifyApiReference from '@scalar/fastify-api-reference';
import type { FastifyInstance } from 'fastify';
import type { DocumentedRoute } from './documented-route.js';

export const API_REFERENCE_PATH = '/api/docs';

export const API_DOCS_ROUTE_DOCS: readonly DocumentedRoute[] = [
  {
    method: 'GET',
    url: '/openapi.json',
    tag: 'Docs',
    summary: 'This OpenAPI 3.1 document',
    security: 'anonymous',
    success: { status: 200, description: 'The document', contentType: 'application/json' },
  },
  {
    method: 'GET',
    url: API_REFERENCE_PATH,
    tag: 'Docs',
    summary: 'The API reference (Scalar) of this document: redirects to the page at /api/docs/',
    security: 'anonymous',
    success: { status: 301, description: 'Redirect to /api/docs/' },
  },
];

/** The page and script of the reference itself, served like the UI's static files (not API operations). */
export const API_REFERENCE_FILES = [`${API_REFERENCE_PATH}/`, `${API_REFERENCE_PATH}/js/scalar.js`];

const INLINE_SCRIPT = /<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g;

/**
 * The WebApp's CSP admits scripts from its own origin only; the reference page starts Scalar with one
 * inline script, so that page alone also admits exactly that script, by its SHA-256 hash.
 */
function allowInlineScriptsByHash(csp: string, html: string): string {
  const hashes = [...html.matchAll(INLINE_SCRIPT)].map(
    ([, body]) =>
      `'sha256-${createHash('sha256')
        .update(body ?? '')
        .digest('base64')}'`,
  );
  return (
    csp
      .replace(/script-src ([^;]*)/, (_all, sources: string) => `script-src ${sources} ${hashes.join(' ')}`)
      // Scalar injects its component styles at run time; this page alone (the API's shape, no data) admits them.
      .replace(/style-src ([^;]*)/, (_all, sources: string) => `style-src ${sources} 'unsafe-inline'`)
  );
}

/**
 * `/openapi.json`, and the Scalar API reference at `/api/docs/` (public like the document it renders: it
 * shows the API's shape, no data; every call made from its client still needs a session or a token).
 */
export async function registerApiDocsRoutes(app: FastifyInstance, document: object): Promise<void> {
  app.get('/openapi.json', async () => document);
  await app.register(async (scope) => {
    // Runs after the WebApp's own onSend hook (registered on the root), so it sees and narrows its CSP.
    scope.addHook('onSend', async (request, reply, payload) => {
      const csp = reply.getHeader('content-security-policy');
      if (
        request.url.split('?')[0] === `${API_REFERENCE_PATH}/` &&
        typeof payload === 'string' &&
        typeof csp === 'string'
      )
        reply.header('content-security-policy', allowInlineScriptsByHash(csp, payload));
      return payload;
    });
    await scope.register(fastifyApiReference, {
      routePrefix: API_REFERENCE_PATH,
      logLevel: 'warn',
      configuration: {
        url: '/openapi.json',
        pageTitle: 'NimBus WebApp API',
        // Nothing leaves the WebApp's origin: no telemetry, no fonts from a CDN, no hosted AI agent or
        // developer toolbar (both talk to scalar.com); the built-in client calls this WebApp directly.
        telemetry: false,
        withDefaultFonts: false,
        agent: { disabled: true },
        mcp: { disabled: true },
        showDeveloperTools: 'never',
      },
    });
  });
}
