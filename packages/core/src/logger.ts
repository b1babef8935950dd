/** The small logging surface NimBus libraries use; pino satisfies it, and so does the console adapter below. */
export interface Logger {
  debug(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
  /** A logger that adds `bindings` to every line (pino's `child`); see {@link childLogger}. */
  child?(bindings: Record<string, unknown>): Logger;
}

/** `logger.child(bindings)` when the logger has it (pino), else a wrapper that merges the bindings into each line. */
export function childLogger(logger: Logger, bindings: Record<string, unknown>): Logger {
  if (typeof logger.child === 'function') return logger.child(bindings);
  const merged = (fields: Record<string, unknown>) => ({ ...bindings, ...fields });
  return {
    debug: (fields, message) => logger.debug(merged(fields), message),
    info: (fields, message) => logger.info(merged(fields), message),
    warn: (fields, message) => logger.warn(merged(fields), message),
    error: (fields, message) => logger.error(merged(fields), message),
    child: (more) => childLogger(logger, { ...bindings, ...more }),
  };
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
