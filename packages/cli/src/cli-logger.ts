import { Writable } from 'node:stream';
import pino from 'pino';
import { usageError } from './exit-codes.js';

export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'silent';
const LEVELS: readonly LogLevel[] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];
const LEVEL_NAMES: Record<number, string> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};

/** Field paths never written to a log: credentials that might be passed along with other fields. */
export const REDACTED_PATHS = [
  'password',
  '*.password',
  'passwordHash',
  '*.passwordHash',
  'connectionString',
  '*.connectionString',
  'token',
  '*.token',
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-csrf-token"]',
  'headers.cookie',
  'headers.authorization',
];

export interface CliLoggerOptions {
  /** Level when `NIMBUS_LOG_LEVEL` is not set. */
  readonly level?: LogLevel;
  readonly out?: NodeJS.WritableStream & { isTTY?: boolean };
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * The one logger of a `nimbus` process: pino, on stderr (stdout stays for results and readiness lines). JSON
 * lines when stderr is not a terminal (`NIMBUS_LOG_FORMAT=json|pretty` overrides), a short readable line when it
 * is; `NIMBUS_LOG_LEVEL` wins over the command's level. Errors keep their type, message and stack; credential
 * fields are redacted.
 */
export function createCliLogger(options: CliLoggerOptions | LogLevel = {}): pino.Logger {
  const {
    level = 'warn',
    out = process.stderr,
    env = process.env,
  } = typeof options === 'string' ? { level: options } : options;
  const fromEnv = env.NIMBUS_LOG_LEVEL?.trim().toLowerCase();
  if (fromEnv && !(LEVELS as readonly string[]).includes(fromEnv))
    throw usageError(`NIMBUS_LOG_LEVEL must be one of ${LEVELS.join(', ')}; got '${env.NIMBUS_LOG_LEVEL}'.`);
  const format = env.NIMBUS_LOG_FORMAT?.trim().toLowerCase() ?? (out.isTTY ? 'pretty' : 'json');
  if (format !== 'json' && format !== 'pretty')
    throw usageError(`NIMBUS_LOG_FORMAT must be json or pretty; got '${env.NIMBUS_LOG_FORMAT}'.`);
  return pino(
    {
      level: fromEnv ?? level,
      base: { pid: process.pid },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      serializers: { error: pino.stdSerializers.err, err: pino.stdSerializers.err },
    },
    format === 'json' ? (out as NodeJS.WritableStream) : readableLines(out),
  );
}

/** A tiny formatter for terminals: `[nimbus] warn: message (key=value …)`. */
function readableLines(out: NodeJS.WritableStream): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) {
        if (line.trim() === '') continue;
        out.write(`${renderLine(line)}\n`);
      }
      done();
    },
  });
}

export function renderLine(json: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const { level, msg, time: _time, pid: _pid, hostname: _hostname, ...fields } = record;
  const parts: string[] = [];
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    const error = value as { type?: unknown; message?: unknown } | null;
    const text =
      typeof value === 'string'
        ? value
        : error && typeof error === 'object' && typeof error.message === 'string' && 'stack' in error
          ? `${String(error.type ?? 'Error')}: ${error.message}`
          : JSON.stringify(value);
    parts.push(`${key}=${text}`);
  }
  const name = LEVEL_NAMES[Number(level)] ?? String(level);
  return `[nimbus] ${name}: ${String(msg ?? '')}${parts.length > 0 ? ` (${parts.join(' ')})` : ''}`;
}
