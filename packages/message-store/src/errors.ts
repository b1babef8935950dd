import { isNimBusError, NimBusError, NimBusErrorCode, type NimBusErrorOptions } from '@nimbus/core';

/** The message store's failure codes (a part of `NimBusErrorCode`, docs/errors.md). */
export const MessageStoreErrorCode = {
  EndpointNotFound: NimBusErrorCode.EndpointNotFound,
  MessageNotFound: NimBusErrorCode.MessageNotFound,
  Transient: NimBusErrorCode.Transient,
  InvalidArgument: NimBusErrorCode.InvalidArgument,
  ReservedEndpointId: NimBusErrorCode.ReservedEndpointId,
  InvalidOption: NimBusErrorCode.InvalidOption,
  ProviderRegistration: NimBusErrorCode.ProviderRegistration,
  Closed: NimBusErrorCode.Closed,
} as const;
export type MessageStoreErrorCode = (typeof MessageStoreErrorCode)[keyof typeof MessageStoreErrorCode];

/** A message store failure; only `Transient` ones are retryable (unless a provider says otherwise). */
export class MessageStoreError extends NimBusError<MessageStoreErrorCode> {
  constructor(code: MessageStoreErrorCode, message: string, options?: NimBusErrorOptions) {
    super(code, message, options);
    this.name = new.target.name;
  }
}

/** The storage behind an endpoint does not exist. A missing row is never this: it reads as null. */
export class EndpointNotFoundError extends MessageStoreError {
  constructor(readonly endpointId: string) {
    super(MessageStoreErrorCode.EndpointNotFound, `Storage for endpoint '${endpointId}' does not exist.`);
  }
}

export class MessageNotFoundError extends MessageStoreError {
  constructor(
    readonly eventId: string,
    readonly messageId: string | null = null,
  ) {
    super(
      MessageStoreErrorCode.MessageNotFound,
      messageId === null
        ? `No message found for event '${eventId}'.`
        : `Message '${messageId}' of event '${eventId}' not found.`,
    );
  }
}

/** A retryable provider failure (connection loss, timeout, throttling). Never reported as a refusal. */
export class StorageProviderTransientError extends MessageStoreError {
  constructor(
    message: string,
    readonly retryAfterMs: number | null = null,
    options?: { cause?: unknown },
  ) {
    super(MessageStoreErrorCode.Transient, message, { ...options, isRetryable: true });
  }
}

/** A store's refusal of a caller's value, by code and shape (not `instanceof`: see `isNimBusError`). */
export function isInvalidStoreArgument(error: unknown): error is InvalidStoreArgumentError {
  return (
    isNimBusError(error, MessageStoreErrorCode.InvalidArgument) &&
    typeof (error as Partial<InvalidStoreArgumentError>).argument === 'string'
  );
}

export class InvalidStoreArgumentError extends MessageStoreError {
  constructor(
    readonly argument: string,
    message: string,
  ) {
    super(MessageStoreErrorCode.InvalidArgument, `${argument}: ${message}`);
  }
}

export class ReservedEndpointIdError extends MessageStoreError {
  constructor(
    readonly endpointId: string,
    reserved: Iterable<string>,
  ) {
    super(
      MessageStoreErrorCode.ReservedEndpointId,
      `Endpoint id '${endpointId}' is reserved for the store's own data; reserved ids (case-sensitive): ${[...reserved].join(', ')}.`,
    );
  }
}

/** A configuration value is invalid; the message names the option, the value and where it came from. */
export class InvalidStoreOptionError extends MessageStoreError {
  constructor(
    readonly option: string,
    readonly value: unknown,
    message: string,
  ) {
    super(MessageStoreErrorCode.InvalidOption, message);
  }
}

export class StorageProviderRegistrationError extends MessageStoreError {
  constructor(
    message: string,
    readonly registeredProviders: readonly string[],
  ) {
    super(MessageStoreErrorCode.ProviderRegistration, message);
  }
}
