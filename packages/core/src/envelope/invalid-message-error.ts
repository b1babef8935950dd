/** A received message that cannot be read as a NimBus message. Dead-lettered with {@link problems} as reason. */
export class InvalidMessageError extends Error {
  override readonly name = 'InvalidMessageError';
  constructor(readonly problems: readonly string[]) {
    super(`Invalid message: ${problems.join('; ')}`);
  }
}
