import { MessageType } from '../envelope/message-type.js';
import { MessageRejectedError } from '../errors/handling-errors.js';
import type { PipelineBehaviour } from './pipeline.js';

/**
 * Rejects messages that lack the identity the engine relies on: every message needs an EventId and an
 * EventRequest needs an EventTypeId. Rejected messages are dead-lettered with a reason naming the field.
 */
export function validationBehaviour(): PipelineBehaviour {
  return {
    name: 'validation',
    async handle(context, next) {
      const { message } = context;
      if (!message.eventId?.trim()) {
        throw new MessageRejectedError('Validation failed: EventId is required');
      }
      if (message.messageType === MessageType.EventRequest && !message.eventTypeId?.trim()) {
        throw new MessageRejectedError('Validation failed: EventTypeId is required for EventRequest');
      }
      await next();
    },
  };
}
