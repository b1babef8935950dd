import type { Logger } from '../logger.js';
import type { Notice } from './engine-support.js';

/**
 * Logs the outcomes an operator must act on, once per settled message (after the settlement committed):
 * a dead-letter, or a handler failure that leaves the session blocked until the event is retried,
 * resubmitted or skipped. Transient failures are logged where the message is abandoned.
 */
export function logSettledOutcome(logger: Logger, { context, events }: Notice): void {
  const deadLettered = events.find((event) => event.kind === 'deadLettered');
  const failed = events.find((event) => event.kind === 'failed');
  if (!deadLettered && !failed) return;
  const fields = {
    endpoint: context.endpointId,
    sessionId: context.sessionId,
    eventId: context.eventId,
    messageId: context.messageId,
    eventTypeId: context.eventTypeId,
    isReplay: context.isReplay,
  };
  if (deadLettered) {
    logger.error(
      { ...fields, reason: deadLettered.reason, err: deadLettered.error },
      'Dead-lettered a message; it waits at the endpoint dead-letter queue for an operator.',
    );
  } else if (failed) {
    logger.error(
      { ...fields, err: failed.error },
      'A handler failed; the session is blocked until the event is retried, resubmitted or skipped.',
    );
  }
}
