import { startWhenDatabaseAnswers } from '@nimbus/sql';
import { CliError } from '../exit-codes.js';
import { type RunningServices, type ServicesOptions, startServices } from './start-services.js';
import { StartupListener } from './startup-listener.js';
import { isDatabaseOutage } from './wait-for-database.js';

export interface StartWhenReachableOptions extends Omit<ServicesOptions, 'listeners'> {
  /** `resolver`, `webapp` or `dev`: names the process in its status lines and logs. */
  readonly name: string;
  /** `--fail-fast`: exit when the database does not answer at start instead of waiting for it. */
  readonly failFast: boolean;
  /** Aborted at SIGTERM/SIGINT. */
  readonly shutdown: AbortSignal;
}

/**
 * Starts the services of a long-running command (`nimbus resolver`, `nimbus webapp`, `nimbus dev`) even while the
 * database is down: their ports (the WebApp's, the Resolver's health port) open first and answer `/healthz` 200
 * and `/readyz` 503 with the reason, the start is retried with back-off until the database answers, and then the
 * same ports serve the started services. `null` when told to stop while waiting.
 */
export async function startServicesWhenReachable(
  options: StartWhenReachableOptions,
): Promise<RunningServices | null> {
  const { name, print, config } = options;
  const listeners: { health?: StartupListener; webapp?: StartupListener } = {};
  const closeListeners = async () => {
    await Promise.all(Object.values(listeners).map((listener) => listener.close()));
  };
  try {
    if (options.health)
      listeners.health = await StartupListener.open(
        `NimBus ${name}`,
        options.health.host,
        options.health.port,
      ).catch(inUse(`Health port ${options.health.port} is in use; pass another --health-port.`));
    if (options.webapp)
      listeners.webapp = await StartupListener.open(`NimBus ${name}`, config.host, config.port).catch(
        inUse(
          `Port ${config.port} on ${config.host} is in use; pass --port <port> (or --port 0 for any free port).`,
        ),
      );
    const services = await startWhenDatabaseAnswers(() => startServices({ ...options, listeners }), {
      what: `NimBus ${name}`,
      logger: options.logger,
      failFast: options.failFast,
      signal: options.shutdown,
      isOutage: isDatabaseOutage,
      onWaiting: (reason, first) => {
        for (const listener of Object.values(listeners)) listener.starting(reason);
        if (first)
          print(
            `NimBus ${name} is ${reason}; retrying with back-off (/readyz answers 503 until it is ready)`,
          );
      },
    });
    if (services === null) {
      await closeListeners();
      return null;
    }
    return {
      ...services,
      stop: async () => {
        const clean = await services.stop();
        await closeListeners();
        return clean;
      },
    };
  } catch (error) {
    await closeListeners();
    throw error;
  }
}

function inUse(message: string): (error: NodeJS.ErrnoException) => never {
  return (error) => {
    if (error.code !== 'EADDRINUSE') throw error;
    throw new CliError(message);
  };
}
