import type { Logger } from '@nimbus/core';
import type { FastifyBaseLogger } from 'fastify';

/** A pino logger (the CLI's) can be Fastify's own logger instance too. */
export function isPinoLogger(logger: Logger | undefined): logger is Logger & FastifyBaseLogger {
  const candidate = logger as Partial<FastifyBaseLogger> | undefined;
  return (
    typeof candidate?.child === 'function' &&
    typeof candidate.fatal === 'function' &&
    typeof candidate.trace === 'function' &&
    typeof candidate.level === 'string'
  );
}
