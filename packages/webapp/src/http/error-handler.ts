import { isRetryableError, type Logger } from '@nimbus/core';
import { isInvalidStoreArgument } from '@nimbus/message-store';
import { classifyDriverError } from '@nimbus/sql';
import type { FastifyError, FastifyInstance } from 'fastify';
import { HttpError } from './http-error.js';
import { redactRequestUrl } from './redact.js';

/**
 * Every error leaves as `{ error, message, issues? }`; a retryable one (a backing service down for a moment) with
 * 503 and `retry-after`; unexpected ones are logged and answered with 500.
 */
export function installErrorHandler(app: FastifyInstance, logger: Logger): void {
  app.setErrorHandler((error: FastifyError | HttpError | Error, request, reply) => {
    if (error instanceof HttpError) {
      reply.headers(error.headers);
      return reply.code(error.status).send({
        error: error.code,
        message: error.message,
        ...(error.issues.length > 0 ? { issues: error.issues } : {}),
      });
    }
    if (isInvalidStoreArgument(error)) {
      // The store refused a client-supplied value (e.g. a continuationToken it did not issue).
      const part = request.query && error.argument in (request.query as object) ? 'query' : 'body';
      const path = `${part}.${error.argument}`;
      const message = error.message.replace(/^[^:]+: /, '');
      return reply.code(400).send({
        error: 'ValidationError',
        message: `Invalid request: ${path}: ${message}`,
        issues: [{ path, message }],
      });
    }
    const status = (error as FastifyError).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      // Fastify's own refusals: malformed JSON, unsupported media type, body too large.
      return reply
        .code(status)
        .send({ error: (error as FastifyError).code ?? 'BadRequest', message: error.message });
    }
    if (isRetryableError(error) || classifyDriverError(error).isRetryable) {
      // The database, store or transport is down for a moment (a restart, an outage) or did not answer within
      // its lock or statement timeout: say so, why, and when to retry (never where the database is). The WebApp's
      // own tables (identity, alerts, bulk jobs) answer with the driver's error itself, hence the second test.
      const unavailable = unavailableAnswer(error);
      logger.warn(
        {
          err: error.message,
          reason: unavailable.reason,
          url: redactRequestUrl(request.url),
          method: request.method,
        },
        'WebApp request failed: a backing service is unavailable',
      );
      return reply.code(503).header('retry-after', String(unavailable.retryAfterSeconds)).send({
        error: 'ServiceUnavailable',
        reason: unavailable.reason,
        message: unavailable.message,
      });
    }
    logger.error(
      { err: error.message, stack: error.stack, url: redactRequestUrl(request.url), method: request.method },
      'WebApp request failed',
    );
    return reply
      .code(500)
      .send({ error: 'InternalError', message: 'The server failed to handle the request; see its log.' });
  });
}

/**
 * The 503 of a retryable failure: `DatabaseTimeout` when the statement gave up on its lock or statement timeout
 * (another session holds a lock, or the database is overloaded), `BackingServiceUnavailable` otherwise.
 */
export function unavailableAnswer(error: unknown): {
  readonly reason: 'DatabaseTimeout' | 'BackingServiceUnavailable';
  readonly message: string;
  readonly retryAfterSeconds: number;
} {
  if (classifyDriverError(error).reason === 'busy')
    return {
      reason: 'DatabaseTimeout',
      message:
        'The database did not answer within its lock or statement timeout (it is busy or a lock is held); retry shortly.',
      retryAfterSeconds: 5,
    };
  return {
    reason: 'BackingServiceUnavailable',
    message: 'A backing service (database, store or transport) is unavailable for the moment; retry shortly.',
    retryAfterSeconds: 2,
  };
}
