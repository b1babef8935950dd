import { NimBusError, NimBusErrorCode } from '@nimbus/core';
/** No reply arrived in time. */
export class RequestTimeoutError extends NimBusError<typeof NimBusErrorCode.RequestTimeout> {
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
      NimBusErrorCode.RequestTimeout,
      `Request ${request.eventTypeId} (message ${request.messageId}) got no reply within ${timeoutMs} ms ` +
        `(reply session ${request.replyToSessionId})`,
    );
  }
}

/** The responder's handler failed; carries the type name and message it reported. */
export class RequestReplyError extends NimBusError<typeof NimBusErrorCode.RequestFailed> {
  override readonly name = 'RequestReplyError';
  constructor(
    readonly errorType: string,
    readonly errorText: string,
    readonly requestMessageId: string,
  ) {
    super(
      NimBusErrorCode.RequestFailed,
      `The responder failed the request ${requestMessageId}: ${errorType}: ${errorText}`,
    );
  }
}

/** The requester or responder cannot work as configured (missing endpoint, no reply input, no reply address). */
export class RequestReplyConfigurationError extends NimBusError<typeof NimBusErrorCode.InvalidOption> {
  override readonly name = 'RequestReplyConfigurationError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(NimBusErrorCode.InvalidOption, message, options);
  }
}

/** The reply arrived but cannot be read: not JSON, or nested deeper than the payload limit. It is refused unparsed. */
export class InvalidReplyError extends NimBusError<typeof NimBusErrorCode.InvalidReply> {
  override readonly name = 'InvalidReplyError';
  constructor(
    message: string,
    readonly requestMessageId: string,
    options?: { cause?: unknown },
  ) {
    super(NimBusErrorCode.InvalidReply, message, options);
  }
}
