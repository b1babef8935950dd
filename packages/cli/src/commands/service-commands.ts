import type { MigrationMode } from '@nimbus/message-store-sql';
import { Command, Option } from 'commander';
import { createCliLogger } from '../cli-logger.js';
import { usageError } from '../exit-codes.js';
import { startServicesWhenReachable } from '../services/start-when-reachable.js';
import { waitForShutdownSignal } from '../shutdown-signal.js';
import { routeProcessWarnings, statusPrinter } from '../status-lines.js';
import {
  configFrom,
  type ServiceCommandOptions,
  withBackendOptions,
  withServerOptions,
} from './backend-options.js';
import { type LeaseCommandOptions, leaseFrom, withLeaseOptions } from './lease-options.js';
import { PLATFORM_OPTION_HELP, platformFrom } from './platform-option.js';
import { printSignIn } from './sign-in-banner.js';
import { type TimeoutCommandOptions, timeoutsFrom, withTimeoutOptions } from './timeout-options.js';

interface ServiceOptions extends ServiceCommandOptions, LeaseCommandOptions, TimeoutCommandOptions {
  migrationMode: MigrationMode;
  healthPort?: string;
  healthHost?: string;
  trustProxy?: boolean;
  drainTimeout?: string;
  failFast?: boolean;
}

function migrationModeOption(): Option {
  return new Option('--migration-mode <mode>', 'apply pending store migrations at start, or refuse to start')
    .choices(['AutoApply', 'VerifyOnly'])
    .default('VerifyOnly');
}

async function runUntilSignal(
  name: string,
  which: { resolver: boolean; webapp: boolean },
  options: ServiceOptions,
  plainPrint: (line: string) => void,
): Promise<void> {
  const config = configFrom(options);
  const logger = createCliLogger(options.verbose ? 'info' : 'warn');
  routeProcessWarnings(logger);
  const print = statusPrinter(plainPrint);
  const platform = await platformFrom(options.platform, false);
  const signal = waitForShutdownSignal();
  const shutdown = new AbortController();
  void signal.then(() => shutdown.abort());
  const services = await startServicesWhenReachable({
    name,
    failFast: failFastFrom(options.failFast),
    shutdown: shutdown.signal,
    config,
    logger,
    platform,
    ...which,
    applyTopology: which.resolver,
    sample: null,
    migrationMode: options.migrationMode,
    print,
    environment: process.env.NIMBUS_ENVIRONMENT ?? 'production',
    generateBootstrapPassword: true,
    health: healthFrom(options),
    drainTimeoutMs: drainTimeoutFrom(options.drainTimeout),
    ...(which.resolver ? { lease: leaseFrom(options) } : {}),
    timeouts: timeoutsFrom(options),
    trustProxy: options.trustProxy ?? trustProxyFromEnv(),
    ...(process.env.NIMBUS_METRICS_TOKEN ? { metricsToken: process.env.NIMBUS_METRICS_TOKEN } : {}),
  });
  if (services === null) {
    print(`NimBus ${name} stopped (${await signal}) before it was ready.`);
    return;
  }
  printSignIn(print, services.bootstrap);
  if (services.healthUrl)
    print(`NimBus ${name} health at ${services.healthUrl} (/healthz, /readyz, /metrics)`);
  print(`NimBus ${name} ready${services.url ? ` at ${services.url}` : ''}`);
  const received = await signal;
  print(`NimBus ${name} stopping (${received})…`);
  const clean = await services.stop();
  print(clean ? `NimBus ${name} stopped.` : `NimBus ${name} stopped with errors (see above).`);
}

function healthFrom(options: ServiceOptions): { host: string; port: number } | null {
  const raw = options.healthPort ?? process.env.NIMBUS_HEALTH_PORT;
  if (raw === undefined || raw === '') return null;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw usageError(`--health-port must be a port number between 0 and 65535; got '${raw}'.`);
  return { host: options.healthHost ?? process.env.NIMBUS_HEALTH_HOST ?? '127.0.0.1', port };
}

/** `--drain-timeout` / `NIMBUS_DRAIN_TIMEOUT_MS`: how long a stop waits for in-flight work. */
export function drainTimeoutFrom(option: string | undefined): number {
  const raw = option ?? process.env.NIMBUS_DRAIN_TIMEOUT_MS ?? '30000';
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 0)
    throw usageError(`--drain-timeout must be a whole number of milliseconds >= 0; got '${raw}'.`);
  return ms;
}

export const DRAIN_TIMEOUT_HELP =
  'on SIGTERM, how long in-flight work may finish before it is abandoned (env NIMBUS_DRAIN_TIMEOUT_MS, default 30000)';

export const FAIL_FAST_HELP =
  'exit at once when the database does not answer at start, instead of waiting for it with /healthz 200 and /readyz 503 (env NIMBUS_FAIL_FAST=true)';

/** `--fail-fast` / `NIMBUS_FAIL_FAST`: a start during a database outage exits 1 instead of waiting. */
export function failFastFrom(option: boolean | undefined): boolean {
  if (option) return true;
  return booleanFromEnv('NIMBUS_FAIL_FAST');
}

function trustProxyFromEnv(): boolean {
  return booleanFromEnv('NIMBUS_TRUST_PROXY');
}

function booleanFromEnv(name: string): boolean {
  const raw = (process.env[name] ?? '').toLowerCase();
  if (raw === '' || raw === '0' || raw === 'false') return false;
  if (raw === '1' || raw === 'true') return true;
  throw usageError(`${name} must be true or false; got '${process.env[name]}'.`);
}

/** `nimbus resolver`: the Resolver worker alone. */
export function resolverCommand(print: (line: string) => void): Command {
  const command = new Command('resolver')
    .description('Run the Resolver worker: projects every request and outcome into the message store.')
    .option('--platform <module>', `${PLATFORM_OPTION_HELP}; when given, its topology is applied at start`)
    .addOption(migrationModeOption())
    .option(
      '--health-port <port>',
      'serve /healthz, /readyz and /metrics on this port (env NIMBUS_HEALTH_PORT)',
    )
    .option(
      '--health-host <host>',
      'interface of the health port (env NIMBUS_HEALTH_HOST, default 127.0.0.1)',
    )
    .option('--fail-fast', FAIL_FAST_HELP)
    .option('--verbose', 'log at info level');
  withLeaseOptions(command);
  withTimeoutOptions(withBackendOptions(command));
  return command.action((options: ServiceOptions) =>
    runUntilSignal('resolver', { resolver: true, webapp: false }, options, print),
  );
}

/** `nimbus webapp`: the operator WebApp alone. */
export function webappCommand(print: (line: string) => void): Command {
  const command = new Command('webapp')
    .description(
      'Run the operator WebApp (REST API, live updates, UI) over the configured store and transport.',
    )
    .option('--platform <module>', `${PLATFORM_OPTION_HELP}; lists its endpoints and event types`)
    .addOption(migrationModeOption())
    .option('--drain-timeout <ms>', DRAIN_TIMEOUT_HELP)
    .option(
      '--trust-proxy',
      'behind a reverse proxy: take the client IP and https from X-Forwarded-* (env NIMBUS_TRUST_PROXY=true)',
    )
    .option('--fail-fast', FAIL_FAST_HELP)
    .option('--verbose', 'log at info level');
  withTimeoutOptions(withServerOptions(withBackendOptions(command)));
  return command.action((options: ServiceOptions) =>
    runUntilSignal('webapp', { resolver: false, webapp: true }, options, print),
  );
}
