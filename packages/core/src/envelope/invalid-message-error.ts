import { NimBusErrorCode } from '../errors/error-codes.js';
import { NimBusError } from '../errors/nimbus-error.js';

/** A received message that cannot be read as a NimBus message. Dead-lettered with {@link problems} as reason. */
export class InvalidMessageError extends NimBusError<typeof NimBusErrorCode.InvalidMessage> {
  override readonly name = 'InvalidMessageError';
  constructor(readonly problems: readonly string[]) {
    super(NimBusErrorCode.InvalidMessage, `Invalid message: ${problems.join('; ')}`);
  }
}
