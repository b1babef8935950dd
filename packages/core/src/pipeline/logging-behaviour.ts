import { type Clock, systemClock } from '../clock.js';
import type { Logger } from '../logger.js';
import type { PipelineBehaviour } from './pipeline.js';

/** Logs the start, the completion (with elapsed ms) and any failure of each message; always rethrows. */
export function loggingBehaviour(logger: Logger, clock: Clock = systemClock): PipelineBehaviour {
  return {
    name: 'logging',
    async handle(context, next) {
      const { message } = context;
      const fields = {
        endpointId: context.endpointId,
        messageType: message.messageType,
        eventTypeId: message.eventTypeId,
        eventId: message.eventId,
        sessionId: message.sessionId,
        messageId: message.messageId,
      };
      const started = clock.now();
      logger.info(fields, 'Processing message');
      try {
        await next();
        logger.info({ ...fields, elapsedMs: clock.now() - started }, 'Processed message');
      } catch (error) {
        logger.warn(
          { ...fields, elapsedMs: clock.now() - started, error: String(error) },
          'Processing message failed',
        );
        throw error;
      }
    },
  };
}
