import { NimBusErrorCode } from './error-codes.js';
import { NimBusError } from './nimbus-error.js';

// The errors handlers and pipeline behaviours throw to steer what happens to a message.

/** A recoverable failure (infrastructure hiccup): the message is abandoned and delivered again later. */
export class TransientError extends NimBusError<typeof NimBusErrorCode.Transient> {
  override readonly name: string = 'TransientError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(NimBusErrorCode.Transient, message, { ...options, isRetryable: true });
  }
}

/** A failure that no retry can fix: the message is dead-lettered with a readable reason, never retried. */
export class PermanentFailureError extends NimBusError<typeof NimBusErrorCode.PermanentFailure> {
  override readonly name: string = 'PermanentFailureError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(NimBusErrorCode.PermanentFailure, message, { ...options, isRetryable: false });
  }
}

/** Thrown by a pipeline behaviour to reject a message: it is dead-lettered with `reason`. */
export class MessageRejectedError extends NimBusError<typeof NimBusErrorCode.MessageRejected> {
  override readonly name = 'MessageRejectedError';
  constructor(readonly reason: string) {
    super(NimBusErrorCode.MessageRejected, reason);
  }
}
