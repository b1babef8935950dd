import { NimBusErrorCode } from '../errors/error-codes.js';
import { NimBusError } from '../errors/nimbus-error.js';

/** Raised when a platform definition breaks a rule (duplicate ids, collisions, reserved names). */
export class PlatformDefinitionError extends NimBusError<typeof NimBusErrorCode.PlatformDefinition> {
  override readonly name = 'PlatformDefinitionError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(NimBusErrorCode.PlatformDefinition, message, options);
  }
}

/** Raised when a session key cannot be resolved for an event (e.g. the key property does not exist). */
export class SessionKeyError extends NimBusError<typeof NimBusErrorCode.SessionKey> {
  override readonly name = 'SessionKeyError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(NimBusErrorCode.SessionKey, message, options);
  }
}

export interface FieldError {
  /** Dotted path of the offending field, `''` for the event as a whole. */
  readonly path: string;
  readonly message: string;
}

/** Raised when an event does not satisfy its schema. Carries every field error. */
export class EventValidationError extends NimBusError<typeof NimBusErrorCode.EventValidation> {
  override readonly name = 'EventValidationError';
  constructor(
    readonly eventTypeId: string,
    readonly fieldErrors: readonly FieldError[],
  ) {
    super(
      NimBusErrorCode.EventValidation,
      `Event '${eventTypeId}' is invalid: ${fieldErrors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join('; ')}`,
    );
  }
}
