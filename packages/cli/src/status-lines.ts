import type { Logger } from '@nimbus/core';

/**
 * The status lines a service prints on stdout (ready, health URL, migrations, stopping). With
 * `NIMBUS_LOG_FORMAT=json` each becomes one JSON record in pino's shape (`level` 30, `time`, `pid`, `msg`), so
 * every line a deployed process writes, on stdout and stderr alike, is JSON; otherwise they stay plain text.
 */
export function statusPrinter(
  print: (line: string) => void,
  env: Readonly<Record<string, string | undefined>> = process.env,
): (line: string) => void {
  if (env.NIMBUS_LOG_FORMAT?.trim().toLowerCase() !== 'json') return print;
  return (line) => print(JSON.stringify({ level: 30, time: Date.now(), pid: process.pid, msg: line }));
}

/**
 * Node prints process warnings (deprecations, experimental features, listener leaks) as plain text on stderr;
 * a service sends them through its logger instead, as one `warn` record each.
 */
export function routeProcessWarnings(logger: Logger): void {
  process.removeAllListeners('warning');
  process.on('warning', (warning) =>
    logger.warn({ err: warning, warning: warning.name }, `Node.js process warning: ${warning.message}`),
  );
}
