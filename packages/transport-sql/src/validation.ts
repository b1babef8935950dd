import {
  type PublishRequest,
  type SessionState,
  TransportError,
  TransportErrorCode,
  type TransportMessage,
} from '@nimbus/core';

/** Bytes a message counts against a publish budget: UTF-8 body plus header names and values. */
export function messageSize(message: TransportMessage): number {
  let size = Buffer.byteLength(message.body, 'utf8');
  for (const [name, value] of Object.entries(message.headers)) {
    size += Buffer.byteLength(name, 'utf8') + Buffer.byteLength(value, 'utf8');
  }
  return size;
}

export function assertBatchSize(requests: readonly PublishRequest[], maxBatchBytes: number): void {
  let bytes = 0;
  for (const request of requests) for (const message of request.messages) bytes += messageSize(message);
  if (bytes > maxBatchBytes) {
    throw new TransportError(
      TransportErrorCode.MessageTooLarge,
      `Publish batch of ${bytes} bytes exceeds maxBatchBytes (${maxBatchBytes}); page the batch`,
    );
  }
}

export function assertSource(source: unknown): asserts source is string {
  if (typeof source !== 'string' || source.length === 0) {
    throw new TransportError(
      TransportErrorCode.InvalidArgument,
      'PublishRequest.source must be a non-empty string',
    );
  }
}

export function assertMessage(message: TransportMessage): void {
  if (typeof message?.sessionId !== 'string' || message.sessionId.length === 0) {
    throw new TransportError(
      TransportErrorCode.InvalidArgument,
      'TransportMessage.sessionId must be a non-empty string',
    );
  }
  if (typeof message.body !== 'string') {
    throw new TransportError(TransportErrorCode.InvalidArgument, 'TransportMessage.body must be a string');
  }
  if (typeof message.messageId !== 'string' || message.messageId.length === 0) {
    throw new TransportError(
      TransportErrorCode.InvalidArgument,
      'TransportMessage.messageId must be a non-empty string',
    );
  }
  if (message.headers === null || typeof message.headers !== 'object') {
    throw new TransportError(
      TransportErrorCode.InvalidArgument,
      'TransportMessage.headers must be an object',
    );
  }
}

export function assertState(state: SessionState | null): void {
  if (state !== null && (typeof state !== 'object' || Array.isArray(state))) {
    throw new TransportError(
      TransportErrorCode.InvalidArgument,
      'Session state must be a JSON object or null',
    );
  }
}
