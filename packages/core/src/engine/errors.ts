/** A recoverable failure (infrastructure hiccup): the message is abandoned and delivered again later. */
export class TransientError extends Error {
  override readonly name: string = 'TransientError';
}

/** A failure that no retry can fix: the message is dead-lettered with a readable reason, never retried. */
export class PermanentFailureError extends Error {
  override readonly name: string = 'PermanentFailureError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** No handler is registered for the event type: answered with an `UnsupportedResponse`. */
export class EventHandlerNotFoundError extends Error {
  override readonly name = 'EventHandlerNotFoundError';
  constructor(readonly eventTypeId: string | null) {
    super(
      eventTypeId
        ? `No handler is registered for event type '${eventTypeId}'.`
        : 'The message carries no event type id, so no handler can be found.',
    );
  }
}

/** A control message came from a sender that may not send it. */
export class UnauthorizedRequestError extends Error {
  override readonly name = 'UnauthorizedRequestError';
}

/** The engine has no procedure for this message type (responses, unknown types). */
export class UnsupportedMessageTypeError extends Error {
  override readonly name = 'UnsupportedMessageTypeError';
  constructor(readonly messageType: string) {
    super(`Unsupported MessageType '${messageType}'.`);
  }
}

/** Synthesised from a `HandoffFailedRequest`: the external work reported failure. */
export class HandoffFailedError extends Error {
  override readonly name = 'HandoffFailedError';
  constructor(
    message: string,
    readonly originalErrorType: string | null,
  ) {
    super(message);
  }
}

/** Thrown by a pipeline behaviour to reject a message: it is dead-lettered with `reason`. */
export class MessageRejectedError extends Error {
  override readonly name = 'MessageRejectedError';
  constructor(readonly reason: string) {
    super(reason);
  }
}

/**
 * Seen by pipeline behaviours when the business handler failed with a retryable error. The engine has
 * already planned the error response, the session block and the retry; `cause` is the handler's error.
 */
export class HandlerFailedError extends Error {
  override readonly name = 'HandlerFailedError';
  constructor(readonly handlerError: unknown) {
    super(handlerError instanceof Error ? handlerError.message : String(handlerError), {
      cause: handlerError,
    });
  }
}

/** The error itself followed by every `cause` below it. */
export function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current: unknown = error;
  while (current !== undefined && current !== null && chain.length < 16 && !chain.includes(current)) {
    chain.push(current);
    current = current instanceof Error ? current.cause : undefined;
  }
  return chain;
}

/** Name, message and stack of an error and of its causes, for dead-letter descriptions and text rules. */
export function fullErrorText(error: unknown): string {
  return causeChain(error)
    .map((e) => (e instanceof Error ? (e.stack ?? `${e.name}: ${e.message}`) : String(e)))
    .join('\n--- caused by ---\n');
}

export function errorTypeName(error: unknown): string {
  if (error instanceof Error) return error.name || error.constructor.name;
  return typeof error;
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
