import { isServiceBusError } from '@azure/service-bus';
import { isTransportError, TransportError, TransportErrorCode } from '@nimbus/core';

const CODES: Record<string, TransportErrorCode> = {
  SessionLockLost: TransportErrorCode.SessionLockLost,
  MessageLockLost: TransportErrorCode.MessageLockLost,
  SessionCannotBeLocked: TransportErrorCode.SessionCannotBeLocked,
  MessagingEntityNotFound: TransportErrorCode.EntityNotFound,
  MessageNotFound: TransportErrorCode.MessageNotFound,
  ServiceTimeout: TransportErrorCode.Timeout,
  QuotaExceeded: TransportErrorCode.QuotaExceeded,
  MessageSizeExceeded: TransportErrorCode.MessageTooLarge,
  ServiceBusy: TransportErrorCode.ServiceUnavailable,
  ServiceCommunicationProblem: TransportErrorCode.ServiceUnavailable,
  GeneralError: TransportErrorCode.ServiceUnavailable,
};

const REST_CODES: Record<string, TransportErrorCode> = {
  MessageEntityNotFoundError: TransportErrorCode.EntityNotFound,
  QuotaExceededError: TransportErrorCode.QuotaExceeded,
  ServerBusyError: TransportErrorCode.ServiceUnavailable,
};

/** Translates a Service Bus SDK error into the transport's closed error vocabulary (keeping it as the cause). */
export function translateError(error: unknown, what: string): TransportError {
  if (isTransportError(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (isServiceBusError(error)) {
    const code = CODES[error.code] ?? TransportErrorCode.ServiceUnavailable;
    return new TransportError(code, `${what}: ${message}`, { cause: error });
  }
  const restCode = (error as { code?: string } | null)?.code;
  if (restCode && REST_CODES[restCode]) {
    return new TransportError(REST_CODES[restCode], `${what}: ${message}`, { cause: error });
  }
  return new TransportError(TransportErrorCode.ServiceUnavailable, `${what}: ${message}`, { cause: error });
}

/** Runs `operation`, translating any SDK failure. */
export async function guarded<T>(what: string, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw translateError(error, what);
  }
}

export function isCode(error: unknown, code: TransportErrorCode): boolean {
  return isTransportError(error, code);
}
