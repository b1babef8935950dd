import type { FastifyInstance } from 'fastify';
import { renderApiDocsPage } from './api-docs-page.js';
import type { DocumentedRoute } from './documented-route.js';

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
    url: '/api-docs',
    tag: 'Docs',
    summary: 'Every operation of this document as an HTML page',
    security: 'anonymous',
    success: { status: 200, description: 'HTML', contentType: 'text/html' },
  },
];

/** `/openapi.json` and its HTML listing `/api-docs`. */
export function registerApiDocsRoutes(
  app: FastifyInstance,
  document: Parameters<typeof renderApiDocsPage>[0],
): void {
  app.get('/openapi.json', async () => document);
  app.get('/api-docs', async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(renderApiDocsPage(document)),
  );
}
