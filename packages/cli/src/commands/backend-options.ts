import { type Command, Option } from 'commander';
import { assertEmulatorConnectionString } from '../backends/open-servicebus-transport.js';
import { ConfigError, type ConfigOverrides, loadConfig, type NimbusConfig } from '../config.js';
import { CliError, usageError } from '../exit-codes.js';

/** The options every command that touches the store or the transport shares. */
export function withBackendOptions(command: Command): Command {
  return command
    .addOption(
      new Option('--data-dir <dir>', 'where SQLite files live (env NIMBUS_DATA_DIR)').default(
        undefined,
        '.nimbus',
      ),
    )
    .addOption(
      new Option('--store <kind>', 'message store (env NIMBUS_STORE)').choices([
        'sqlite',
        'postgres',
        'memory',
        'cosmos',
      ]),
    )
    .addOption(
      new Option('--transport <kind>', 'transport (env NIMBUS_TRANSPORT)').choices([
        'sqlite',
        'postgres',
        'memory',
        'servicebus',
      ]),
    )
    .addOption(
      new Option(
        '--servicebus-connection-string <value>',
        'an emulator connection string (…;UseDevelopmentEmulator=true) for --transport servicebus; a real namespace goes in env NIMBUS_SERVICEBUS_CONNECTION_STRING',
      ),
    );
}

export function withServerOptions(command: Command): Command {
  return command
    .option('--host <host>', 'interface the WebApp listens on (env NIMBUS_HOST)', undefined)
    .option('--port <port>', 'WebApp port, 0 for any free port (env NIMBUS_PORT, default 7070)', undefined);
}

/** Options shared by the commands that run services: `dev`, `resolver` and `webapp`. */
export interface ServiceCommandOptions {
  dataDir?: string;
  store?: string;
  transport?: string;
  servicebusConnectionString?: string;
  host?: string;
  port?: string;
  platform?: string;
  verbose?: boolean;
}

/** Reads the configuration; a bad setting becomes a usage error (exit 2). */
export function configFrom(options: ConfigOverrides): NimbusConfig {
  try {
    if (options.servicebusConnectionString)
      assertEmulatorConnectionString(options.servicebusConnectionString);
    return loadConfig(options);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof CliError) throw usageError(error.message);
    throw error;
  }
}

/** Commands that act on stored data need a store other processes can see. */
export function requireSharedBackends(config: NimbusConfig, action: string): void {
  if (config.store === 'memory' || config.transport === 'memory') {
    throw usageError(`${action} needs a shared store and transport (sqlite or postgres), not memory.`);
  }
}
