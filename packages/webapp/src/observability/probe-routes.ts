import { type ReadinessReport, readinessAnswer } from '@nimbus/core';
import type { FastifyInstance } from 'fastify';
import { sameToken } from '../auth/tokens.js';

/** A Prometheus text exposition, produced on each scrape. */
export interface MetricsEndpoint {
  readonly contentType: string;
  scrape(): Promise<string>;
}

export interface ProbeRouteOptions {
  readonly readiness: () => Promise<ReadinessReport>;
  readonly metrics?: MetricsEndpoint;
  /** When set, `/metrics` wants `Authorization: Bearer <token>`. */
  readonly metricsToken?: string;
}

/**
 * Unauthenticated probes for orchestrators and monitoring: `/healthz` (the process answers), `/readyz`
 * (store and transport reachable, migrations current; 503 otherwise) and `/metrics` (Prometheus).
 */
export function registerProbeRoutes(app: FastifyInstance, options: ProbeRouteOptions): void {
  app.get('/healthz', async (_request, reply) =>
    reply.header('Cache-Control', 'no-store').send({ status: 'ok' }),
  );
  app.get('/readyz', async (_request, reply) => {
    const { statusCode, body } = readinessAnswer(await options.readiness());
    return reply.code(statusCode).header('Cache-Control', 'no-store').send(body);
  });
  const metrics = options.metrics;
  if (!metrics) return;
  app.get('/metrics', async (request, reply) => {
    if (options.metricsToken) {
      const header = request.headers.authorization ?? '';
      const token = header.startsWith('Bearer ') ? header.slice(7) : '';
      if (!sameToken(token, options.metricsToken))
        return reply
          .code(401)
          .send({ error: 'Unauthorized', message: 'Send Authorization: Bearer <NIMBUS_METRICS_TOKEN>.' });
    }
    return reply
      .header('Cache-Control', 'no-store')
      .type(metrics.contentType)
      .send(await metrics.scrape());
  });
}
