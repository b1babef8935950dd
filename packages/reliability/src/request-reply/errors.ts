/** No reply arrived in time. */
export class RequestTimeoutError extends Error {
  override readonly name = 'RequestTimeoutError';
  constructor(
    readonly request: {
      readonly eventTypeId: string;
      readonly messageId: string;
      readonly replyToSessionId: string;
    },
    readonly timeoutMs: number,
  ) {
    super(
      `Request ${request.eventTypeId} (message ${request.messageId}) got no reply within ${timeoutMs} ms ` +
        `(reply session ${request.replyToSessionId})`,
    );
  }
}

/** The responder's handler failed; carries the type name and message it reported. */
export class RequestReplyError extends Error {
  override readonly name = 'RequestReplyError';
  constructor(
    readonly errorType: string,
    readonly errorText: string,
    readonly requestMessageId: string,
  ) {
    super(`The responder failed the request ${requestMessageId}: ${errorType}: ${errorText}`);
  }
}

/** The requester or responder cannot work as configured (missing endpoint, no reply input, no reply address). */
export class RequestReplyConfigurationError extends Error {
  override readonly name = 'RequestReplyConfigurationError';
}

/** The reply arrived but cannot be read: not JSON, or nested deeper than the payload limit. It is refused unparsed. */
export class InvalidReplyError extends Error {
  override readonly name = 'InvalidReplyError';
  constructor(
    message: string,
    readonly requestMessageId: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
