/** The small logging surface NimBus libraries use; pino satisfies it, and so does the console adapter below. */
export interface Logger {
  debug(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

export const silentLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/** Writes warnings and errors to the console; used when the host gives no logger. */
export const consoleLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: (fields, message) => console.warn(message, fields),
  error: (fields, message) => console.error(message, fields),
};
