// AMQP error conditions the SDK maps onto its ServiceBusError codes.
export const Condition = {
  notFound: 'amqp:not-found',
  messageNotFound: 'com.microsoft:message-not-found',
  messageLockLost: 'com.microsoft:message-lock-lost',
  sessionLockLost: 'com.microsoft:session-lock-lost',
  sessionCannotBeLocked: 'com.microsoft:session-cannot-be-locked',
  timeout: 'com.microsoft:timeout',
  quotaExceeded: 'amqp:resource-limit-exceeded',
  entityAlreadyExists: 'com.microsoft:entity-already-exists',
  notImplemented: 'amqp:not-implemented',
  invalidField: 'amqp:invalid-field',
  tooLarge: 'amqp:link:message-size-exceeded',
  internal: 'amqp:internal-error',
  unauthorized: 'amqp:unauthorized-access',
  notAllowed: 'amqp:not-allowed',
} as const;
export type Condition = (typeof Condition)[keyof typeof Condition];

/** HTTP-like status the `$management` replies carry for each condition. */
const STATUS: Record<Condition, number> = {
  [Condition.notFound]: 404,
  [Condition.messageNotFound]: 404,
  [Condition.messageLockLost]: 410,
  [Condition.sessionLockLost]: 410,
  [Condition.sessionCannotBeLocked]: 409,
  [Condition.timeout]: 408,
  [Condition.quotaExceeded]: 403,
  [Condition.entityAlreadyExists]: 409,
  [Condition.notImplemented]: 501,
  [Condition.invalidField]: 400,
  [Condition.tooLarge]: 413,
  [Condition.internal]: 500,
  [Condition.unauthorized]: 401,
  [Condition.notAllowed]: 400,
};

/** A failure the emulator reports to the client with an AMQP condition (never a silent success). */
export class BrokerError extends Error {
  override readonly name = 'BrokerError';
  constructor(
    readonly condition: Condition,
    message: string,
  ) {
    super(message);
  }

  get status(): number {
    return STATUS[this.condition];
  }

  toAmqp(): { condition: string; description: string } {
    return { condition: this.condition, description: this.message };
  }
}

export function notImplemented(what: string): BrokerError {
  return new BrokerError(Condition.notImplemented, `${what} is not implemented by nimbus-sb-emulator`);
}

export function asBrokerError(error: unknown): BrokerError {
  if (error instanceof BrokerError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new BrokerError(Condition.internal, message);
}
