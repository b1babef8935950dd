/** Raised when a platform definition breaks a rule (duplicate ids, collisions, reserved names). */
export class PlatformDefinitionError extends Error {
  override readonly name = 'PlatformDefinitionError';
}

/** Raised when a session key cannot be resolved for an event (e.g. the key property does not exist). */
export class SessionKeyError extends Error {
  override readonly name = 'SessionKeyError';
}

export interface FieldError {
  /** Dotted path of the offending field, `''` for the event as a whole. */
  readonly path: string;
  readonly message: string;
}

/** Raised when an event does not satisfy its schema. Carries every field error. */
export class EventValidationError extends Error {
  override readonly name = 'EventValidationError';
  constructor(
    readonly eventTypeId: string,
    readonly fieldErrors: readonly FieldError[],
  ) {
    super(
      `Event '${eventTypeId}' is invalid: ${fieldErrors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join('; ')}`,
    );
  }
}
