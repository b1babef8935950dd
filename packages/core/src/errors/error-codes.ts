/**
 * Every code a NimBus error carries (`NimBusError.code`). The table in docs/errors.md lists each with the
 * errors that use it and whether it is retryable by default; `RETRYABLE_BY_DEFAULT` is that column.
 */
export const NimBusErrorCode = {
  // Transports (`TransportError`).
  SessionLockLost: 'SessionLockLost',
  MessageLockLost: 'MessageLockLost',
  SessionCannotBeLocked: 'SessionCannotBeLocked',
  EntityNotFound: 'EntityNotFound',
  MessageNotFound: 'MessageNotFound',
  MessageTooLarge: 'MessageTooLarge',
  Timeout: 'Timeout',
  QuotaExceeded: 'QuotaExceeded',
  ServiceUnavailable: 'ServiceUnavailable',
  Closed: 'Closed',
  InvalidArgument: 'InvalidArgument',
  // Message stores (`MessageStoreError`); `MessageNotFound` and `InvalidArgument` are shared with transports.
  EndpointNotFound: 'EndpointNotFound',
  ReservedEndpointId: 'ReservedEndpointId',
  ProviderRegistration: 'ProviderRegistration',
  // A recoverable failure of whatever is behind the call (store, inbox, a handler's dependency).
  Transient: 'Transient',
  // Configuration: an option or setting with a value that cannot work.
  InvalidOption: 'InvalidOption',
  // Calls that the object's current state, or what the implementation offers, does not allow.
  InvalidState: 'InvalidState',
  NotSupported: 'NotSupported',
  SchemaOutOfDate: 'SchemaOutOfDate',
  // The installation: an optional peer dependency the call needs (a SQL driver) is not installed.
  DriverNotInstalled: 'DriverNotInstalled',
  // Alert destinations (webhook, e-mail) and NimBus's own parts (a worker thread).
  NotificationFailed: 'NotificationFailed',
  Internal: 'Internal',
  // Test support (`@nimbus/testing`, the conformance harness): what it waited for did not happen.
  ExpectationFailed: 'ExpectationFailed',
  // Handling a message (the engine and what handlers and behaviours throw to steer it).
  PermanentFailure: 'PermanentFailure',
  HandlerNotFound: 'HandlerNotFound',
  HandlerFailed: 'HandlerFailed',
  HandlerCancelled: 'HandlerCancelled',
  HandoffFailed: 'HandoffFailed',
  MessageRejected: 'MessageRejected',
  Unauthorized: 'Unauthorized',
  UnsupportedMessageType: 'UnsupportedMessageType',
  InvalidMessage: 'InvalidMessage',
  CircuitOpen: 'CircuitOpen',
  // Platforms and the SDK.
  PlatformDefinition: 'PlatformDefinition',
  SessionKey: 'SessionKey',
  EventValidation: 'EventValidation',
  HandlerRegistration: 'HandlerRegistration',
  // Request/response (`@nimbus/reliability`).
  RequestTimeout: 'RequestTimeout',
  RequestFailed: 'RequestFailed',
  InvalidReply: 'InvalidReply',
} as const;

export type NimBusErrorCode = (typeof NimBusErrorCode)[keyof typeof NimBusErrorCode];

/** Codes whose errors are retryable unless the error says otherwise: trying the same call later may succeed. */
export const RETRYABLE_BY_DEFAULT: ReadonlySet<NimBusErrorCode> = new Set<NimBusErrorCode>([
  NimBusErrorCode.SessionLockLost,
  NimBusErrorCode.MessageLockLost,
  NimBusErrorCode.SessionCannotBeLocked,
  NimBusErrorCode.Timeout,
  NimBusErrorCode.QuotaExceeded,
  NimBusErrorCode.ServiceUnavailable,
  NimBusErrorCode.Transient,
  NimBusErrorCode.HandlerCancelled,
  NimBusErrorCode.CircuitOpen,
]);
