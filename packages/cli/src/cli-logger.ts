import type { Logger } from '@nimbus/core';

type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

function render(fields: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    const text =
      value instanceof Error ? value.message : typeof value === 'string' ? value : JSON.stringify(value);
    parts.push(`${key}=${text}`);
  }
  return parts.length > 0 ? ` (${parts.join(' ')})` : '';
}

/** Plain text log lines on stderr (stdout stays for results and the readiness line). */
export function createCliLogger(
  minimum: Level = 'warn',
  out: NodeJS.WritableStream = process.stderr,
): Logger {
  const write = (level: Level) => (fields: Record<string, unknown>, message: string) => {
    if (ORDER[level] < ORDER[minimum]) return;
    out.write(`[nimbus] ${level}: ${message}${render(fields)}\n`);
  };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}
