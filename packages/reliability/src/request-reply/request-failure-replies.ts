import {
  type HandlerFailedError,
  isNimBusError,
  isRetryableError,
  NimBusError,
  NimBusErrorCode,
  type PipelineBehaviour,
} from '@nimbus/core';
import type { Responder } from './responder.js';

/**
 * A pipeline behaviour that answers a request whose processing failed, including failures before any
 * handler ran (a payload that is malformed, `null`, deeper than 32 levels or breaks the schema): the
 * requester gets an error reply at once instead of waiting for its timeout. The failure is rethrown, so the
 * engine still dead-letters or retries the message as usual. Transient failures (the message is delivered
 * again) are not answered, and an error `respondingHandler` already replied to is not replied twice.
 */
export function replyToFailedRequests(responder: Responder): PipelineBehaviour {
  if (!responder || typeof responder.replyFailure !== 'function') {
    throw new NimBusError(
      NimBusErrorCode.InvalidArgument,
      'replyToFailedRequests needs a responder: createResponder({ transport })',
    );
  }
  return {
    name: 'reply-to-failed-requests',
    async handle(context, next) {
      try {
        await next();
      } catch (error) {
        if (!isRetryableError(error)) {
          const failure = isNimBusError(error, NimBusErrorCode.HandlerFailed)
            ? (error as HandlerFailedError).handlerError
            : error;
          await responder.replyFailure(context.message, failure);
        }
        throw error;
      }
    },
  };
}
