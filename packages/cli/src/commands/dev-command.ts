import { Command } from 'commander';
import { createCliLogger } from '../cli-logger.js';
import { usageError } from '../exit-codes.js';
import { recordPlatformModule } from '../operator/recorded-platform.js';
import { loadSampleModule, SAMPLE_PLATFORM_MODULE } from '../services/sample-module.js';
import { startServicesWhenReachable } from '../services/start-when-reachable.js';
import { waitForShutdownSignal } from '../shutdown-signal.js';
import {
  configFrom,
  type ServiceCommandOptions,
  withBackendOptions,
  withServerOptions,
} from './backend-options.js';
import { type LeaseCommandOptions, leaseFrom, withLeaseOptions } from './lease-options.js';
import { PLATFORM_OPTION_HELP, platformFrom } from './platform-option.js';
import { DRAIN_TIMEOUT_HELP, drainTimeoutFrom, FAIL_FAST_HELP, failFastFrom } from './service-commands.js';
import { printSignIn } from './sign-in-banner.js';
import { type TimeoutCommandOptions, timeoutsFrom, withTimeoutOptions } from './timeout-options.js';

interface DevOptions extends ServiceCommandOptions, TimeoutCommandOptions, LeaseCommandOptions {
  sample?: boolean;
  trafficInterval: string;
  drainTimeout?: string;
  failFast?: boolean;
}

export function devCommand(print: (line: string) => void): Command {
  const command = new Command('dev')
    .description(
      'Run the Resolver, the WebApp and (by default) the sample adapters with generated traffic in one process, ' +
        'on SQLite files under the data dir. Stops cleanly on Ctrl+C / SIGTERM.',
    )
    .option('--platform <module>', PLATFORM_OPTION_HELP)
    .option('--sample', 'run the sample CRM/ERP adapters and traffic (default when no --platform is given)')
    .option('--no-sample', 'do not run the sample adapters')
    .option('--traffic-interval <ms>', 'time between generated sample messages', '3000')
    .option('--drain-timeout <ms>', DRAIN_TIMEOUT_HELP)
    .option('--fail-fast', FAIL_FAST_HELP)
    .option('--verbose', 'log at info level');
  withLeaseOptions(command);
  withTimeoutOptions(withServerOptions(withBackendOptions(command)));
  return command.action(async (options: DevOptions) => {
    const config = configFrom(options);
    const logger = createCliLogger(options.verbose ? 'info' : 'warn');
    const userPlatform = await platformFrom(options.platform, false);
    const sample = options.sample ?? userPlatform === null;
    if (sample && userPlatform) {
      throw usageError('--sample runs the sample platform; leave out --platform, or pass --no-sample.');
    }
    // Read before anything starts, so a bad value is a usage error (exit 2), not a failed start.
    const lease = leaseFrom(options);
    const trafficIntervalMs = Number(options.trafficInterval);
    if (!Number.isInteger(trafficIntervalMs) || trafficIntervalMs < 50) {
      throw usageError(
        `--traffic-interval must be a whole number of milliseconds >= 50; got '${options.trafficInterval}'.`,
      );
    }
    const sampleModule = sample ? await loadSampleModule() : null;
    // The commands run beside it on the same data dir check edited payloads against this platform's schemas.
    const platformModule = options.platform ?? (sampleModule ? SAMPLE_PLATFORM_MODULE : null);
    if (platformModule) recordPlatformModule(config.dataDir, platformModule);
    const signal = waitForShutdownSignal();
    const usesFiles = config.store === 'sqlite' || config.transport === 'sqlite';
    const where = usesFiles ? `, data: ${config.dataDir}` : '';
    print(`NimBus dev starting (store: ${config.store}, transport: ${config.transport}${where})`);
    const shutdown = new AbortController();
    void signal.then(() => shutdown.abort());
    const services = await startServicesWhenReachable({
      name: 'dev',
      failFast: failFastFrom(options.failFast),
      shutdown: shutdown.signal,
      config,
      logger,
      platform: userPlatform ?? sampleModule?.platform ?? null,
      resolver: true,
      webapp: true,
      sample: sampleModule ? { module: sampleModule, trafficIntervalMs, blockedScenario: 'auto' } : null,
      migrationMode: 'AutoApply',
      print,
      environment: 'dev',
      enableHeartbeatsWhenUnconfigured: true,
      printBlockedSessions: true,
      drainTimeoutMs: drainTimeoutFrom(options.drainTimeout),
      timeouts: timeoutsFrom(options),
      lease,
      localCosmosWhenUnconfigured: true,
      localServiceBusWhenUnconfigured: true,
    });
    if (services === null) {
      print(`NimBus dev stopped (${await signal}) before it was ready.`);
      return;
    }
    printSignIn(print, services.bootstrap);
    print(`NimBus dev ready at ${services.url}`);
    const received = await signal;
    print(`NimBus dev stopping (${received})…`);
    const clean = await services.stop();
    print(clean ? 'NimBus dev stopped.' : 'NimBus dev stopped with errors (see above).');
  });
}
