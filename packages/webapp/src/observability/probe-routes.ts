import { type Logger, type ReadinessReport, readinessAnswer } from '@nimbus/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sameToken } from '../auth/tokens.js';
import type { DocumentedRoute } from '../http/documented-route.js';
import { Role } from '../identity/roles.js';
import { publicReadiness } from './readiness-detail.js';

/** A Prometheus text exposition, produced on each scrape. */
export interface MetricsEndpoint {
  readonly contentType: string;
  scrape(): Promise<string>;
}

export type MetricsAccess = 'signed-in' | 'anonymous';

export interface ProbeRouteOptions {
  readonly readiness: () => Promise<ReadinessReport>;
  /** Where a not-ready answer's full reasons (addresses included) are logged, once per change. */
  readonly logger?: Logger;
  readonly metrics?: MetricsEndpoint;
  /** `Authorization: Bearer <token>` with this token is one way to read `/metrics`. */
  readonly metricsToken?: string;
  /**
   * Who may read `/metrics` on this port: `'signed-in'` (default) — the metrics token, or any credential with
   * a site role (a Reader's API token, a session); `'anonymous'` — anyone who reaches the port.
   */
  readonly metricsAccess?: MetricsAccess;
}

/** The probes as the OpenAPI document lists them (`/metrics` only when served). */
export function probeRouteDocs(
  options: Pick<ProbeRouteOptions, 'metrics' | 'metricsToken' | 'metricsAccess'>,
): DocumentedRoute[] {
  const docs: DocumentedRoute[] = [
    {
      method: 'GET',
      url: '/healthz',
      tag: 'Probes',
      summary: 'Liveness: the process serves requests',
      security: 'anonymous',
      success: { status: 200, description: '{"status":"ok"}', contentType: 'application/json' },
    },
    {
      method: 'GET',
      url: '/readyz',
      tag: 'Probes',
      summary: 'Readiness: store, transport and notifier answer, migrations current',
      security: 'anonymous',
      success: { status: 200, description: 'Ready, with each check', contentType: 'application/json' },
      otherResponses: {
        '503':
          'Not ready; checks.<name>.reason says why (without addresses unless a site Owner is signed in)',
      },
    },
  ];
  if (options.metrics)
    docs.push({
      method: 'GET',
      url: '/metrics',
      tag: 'Probes',
      summary:
        'Prometheus text exposition (the metrics token or a site role, unless metricsAccess is anonymous)',
      security: options.metricsAccess === 'anonymous' ? 'anonymous' : 'metricsToken',
      success: { status: 200, description: 'Prometheus text format', contentType: 'text/plain' },
      ...(options.metricsAccess === 'anonymous'
        ? {}
        : { otherResponses: { '401': 'Neither the metrics token nor a credential with a site role' } }),
    });
  return docs;
}

/** The metrics token, or any credential with a site role (Reader or more). */
function mayScrape(request: FastifyRequest, metricsToken: string | undefined): boolean {
  if (request.principal?.has(Role.Reader)) return true;
  if (!metricsToken) return false;
  const header = request.headers.authorization ?? '';
  return sameToken(header.startsWith('Bearer ') ? header.slice(7) : '', metricsToken);
}

/** Database hosts, ports and file paths are for administrators (and the log), not for anyone who asks. */
function isSiteOwner(request: FastifyRequest): boolean {
  return request.principal?.has(Role.Owner) ?? false;
}

/**
 * Unauthenticated probes for orchestrators and monitoring: `/healthz` (the process answers), `/readyz`
 * (store and transport reachable, migrations current; 503 otherwise) and `/metrics` (Prometheus).
 */
export function registerProbeRoutes(app: FastifyInstance, options: ProbeRouteOptions): void {
  app.get('/healthz', async (_request, reply) =>
    reply.header('Cache-Control', 'no-store').send({ status: 'ok' }),
  );
  let lastLogged = '';
  app.get('/readyz', async (request, reply) => {
    const report = await options.readiness();
    const reasons = JSON.stringify(report.checks);
    if (!report.ready && reasons !== lastLogged)
      options.logger?.warn({ checks: report.checks }, 'WebApp not ready');
    lastLogged = report.ready ? '' : reasons;
    const { statusCode, body } = readinessAnswer(isSiteOwner(request) ? report : publicReadiness(report));
    return reply.code(statusCode).header('Cache-Control', 'no-store').send(body);
  });
  const metrics = options.metrics;
  if (!metrics) return;
  app.get('/metrics', async (request, reply) => {
    if (options.metricsAccess !== 'anonymous' && !mayScrape(request, options.metricsToken))
      return reply.code(401).send({
        error: 'Unauthorized',
        message:
          'Send Authorization: Bearer <NIMBUS_METRICS_TOKEN> or <an API token with a site role> (or serve metrics anonymously on a port of their own: docs/metrics.md).',
      });
    return reply
      .header('Cache-Control', 'no-store')
      .type(metrics.contentType)
      .send(await metrics.scrape());
  });
}
