export interface EventContent {
  readonly eventTypeId: string;
  /** The event payload serialised as JSON text. */
  readonly eventJson: string;
}

export interface ErrorContent {
  readonly errorText: string;
  readonly errorType: string | null;
  readonly exceptionStackTrace: string | null;
  readonly exceptionSource: string | null;
}

/** The message body: the event carried, and the error that a failure response reports. */
export interface MessageContent {
  readonly eventContent: EventContent | null;
  readonly errorContent: ErrorContent | null;
}

export const EMPTY_CONTENT: MessageContent = Object.freeze({ eventContent: null, errorContent: null });

export function errorContentFrom(error: unknown): ErrorContent {
  if (error instanceof Error) {
    return {
      errorText: error.message,
      errorType: error.name || error.constructor.name,
      exceptionStackTrace: error.stack ?? null,
      exceptionSource: null,
    };
  }
  return { errorText: String(error), errorType: null, exceptionStackTrace: null, exceptionSource: null };
}
