import type { FastifyInstance } from 'fastify';
import { redactRequestUrl } from './redact.js';

/**
 * Fastify's own request logging, with the query string's values taken out of the url: a token or key sent
 * as `?token=…` must not land in the log. One line per request, when it completes (with its request id).
 * Used in place of Fastify's logging (`disableRequestLogging`), when the WebApp logs through pino.
 */
export function installRequestLog(server: FastifyInstance): void {
  server.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        req: { method: request.method, url: redactRequestUrl(request.url), remoteAddress: request.ip },
        res: { statusCode: reply.statusCode },
        responseTime: reply.elapsedTime,
      },
      'request completed',
    );
  });
}
