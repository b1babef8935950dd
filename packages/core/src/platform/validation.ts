import type { StandardSchemaV1 } from '@standard-schema/spec';
import { NimBusErrorCode } from '../errors/error-codes.js';
import { NimBusError } from '../errors/nimbus-error.js';
import { EventValidationError, type FieldError } from './errors.js';
import type { EventType } from './event-type.js';

export type ValidationResult<T> =
  | { readonly valid: true; readonly value: T }
  | { readonly valid: false; readonly errors: readonly FieldError[] };

function pathOf(issue: StandardSchemaV1.Issue): string {
  if (!issue.path) return '';
  return issue.path.map((segment) => String(typeof segment === 'object' ? segment.key : segment)).join('.');
}

/** Validates a payload against its event type's schema without throwing. */
export function tryValidate<T>(eventType: EventType<T>, payload: unknown): ValidationResult<T> {
  const result = eventType.schema['~standard'].validate(payload);
  if (result instanceof Promise) {
    throw new NimBusError(
      NimBusErrorCode.InvalidArgument,
      `Event type '${eventType.id}' has an asynchronous schema; NimBus needs synchronous validation.`,
    );
  }
  if (result.issues) {
    return {
      valid: false,
      errors: result.issues.map((issue) => ({ path: pathOf(issue), message: issue.message })),
    };
  }
  return { valid: true, value: result.value };
}

/** Validates a payload and returns the parsed value, or throws {@link EventValidationError}. */
export function validateEvent<T>(eventType: EventType<T>, payload: unknown): T {
  const result = tryValidate(eventType, payload);
  if (!result.valid) throw new EventValidationError(eventType.id, result.errors);
  return result.value;
}
