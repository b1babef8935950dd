import { NimBusErrorCode } from '../errors/error-codes.js';
import { NimBusError } from '../errors/nimbus-error.js';

// The errors the engine raises about a message it cannot handle as asked.

/** No handler is registered for the event type: answered with an `UnsupportedResponse`. */
export class EventHandlerNotFoundError extends NimBusError<typeof NimBusErrorCode.HandlerNotFound> {
  override readonly name = 'EventHandlerNotFoundError';
  constructor(readonly eventTypeId: string | null) {
    super(
      NimBusErrorCode.HandlerNotFound,
      eventTypeId
        ? `No handler is registered for event type '${eventTypeId}'.`
        : 'The message carries no event type id, so no handler can be found.',
    );
  }
}

/** A control message came from a sender that may not send it. */
export class UnauthorizedRequestError extends NimBusError<typeof NimBusErrorCode.Unauthorized> {
  override readonly name = 'UnauthorizedRequestError';
  constructor(message: string) {
    super(NimBusErrorCode.Unauthorized, message);
  }
}

/** The engine has no procedure for this message type (responses, unknown types). */
export class UnsupportedMessageTypeError extends NimBusError<typeof NimBusErrorCode.UnsupportedMessageType> {
  override readonly name = 'UnsupportedMessageTypeError';
  constructor(readonly messageType: string) {
    super(NimBusErrorCode.UnsupportedMessageType, `Unsupported MessageType '${messageType}'.`);
  }
}

/** Synthesised from a `HandoffFailedRequest`: the external work reported failure. */
export class HandoffFailedError extends NimBusError<typeof NimBusErrorCode.HandoffFailed> {
  override readonly name = 'HandoffFailedError';
  constructor(
    message: string,
    readonly originalErrorType: string | null,
  ) {
    super(NimBusErrorCode.HandoffFailed, message);
  }
}

/**
 * Seen by pipeline behaviours when the business handler failed with an error the retry policies handle (not
 * retryable, not permanent). The engine has already planned the error response, the session block and the
 * retry; `cause` is the handler's error.
 */
export class HandlerFailedError extends NimBusError<typeof NimBusErrorCode.HandlerFailed> {
  override readonly name = 'HandlerFailedError';
  constructor(readonly handlerError: unknown) {
    super(
      NimBusErrorCode.HandlerFailed,
      handlerError instanceof Error ? handlerError.message : String(handlerError),
      { cause: handlerError },
    );
  }
}
