import { BrokerError, Condition } from '../wire/errors.js';

/** The lock-lost condition the SDK expects for a settlement whose lock is gone. */
export function lockLost(path: string, sessionScoped: boolean): BrokerError {
  return sessionScoped
    ? new BrokerError(
        Condition.sessionLockLost,
        `the session lock for this message of ${path} was lost, or the message was already settled`,
      )
    : new BrokerError(
        Condition.messageLockLost,
        `the lock on this message of ${path} expired or the message was already settled`,
      );
}

export function sessionHeld(path: string, sessionId: string): BrokerError {
  return new BrokerError(
    Condition.sessionCannotBeLocked,
    `session '${sessionId}' of ${path} is locked by another receiver`,
  );
}

export function sessionLockNotHeld(path: string, sessionId: string): BrokerError {
  return new BrokerError(
    Condition.sessionLockLost,
    `the lock on session '${sessionId}' of ${path} is not held (it expired or was released)`,
  );
}

export function deferredNotFound(path: string, sequence: number): BrokerError {
  return new BrokerError(
    Condition.messageNotFound,
    `no deferred message with sequence number ${sequence} in ${path}`,
  );
}

export function sessionIdRequired(path: string): BrokerError {
  return new BrokerError(
    Condition.invalidField,
    `${path} requires sessions: the message needs a session id (group-id)`,
  );
}

export function sessionsNotRequired(path: string): BrokerError {
  return new BrokerError(Condition.invalidField, `${path} does not require sessions`);
}
