import { ALL_MIGRATIONS, type MigrationMode, migrateSqlMessageStore } from '@nimbus/message-store-sql';
import { isSchemaOutOfDate, type MigrationRunResult } from '@nimbus/sql';
import { migrateSqlTransport, TRANSPORT_MIGRATIONS } from '@nimbus/transport-sql';
import { Command } from 'commander';
import { ensureDataDir } from '../backends/data-dir.js';
import type { NimbusConfig } from '../config.js';
import { CliError, ExitCode, usageError } from '../exit-codes.js';
import { migrationProgressLine } from '../migration-progress.js';
import { configFrom, withBackendOptions } from './backend-options.js';

interface StoreOptions {
  dataDir?: string;
  store?: string;
  json?: boolean;
}

function describe(config: NimbusConfig): string {
  if (config.store === 'cosmos') return 'Cosmos DB (NIMBUS_COSMOS_*)';
  return config.store === 'sqlite' ? `SQLite ${config.storeSqlitePath}` : 'PostgreSQL (NIMBUS_POSTGRES_URL)';
}

async function run(config: NimbusConfig, mode: MigrationMode, print: (line: string) => void) {
  if (config.store === 'memory') throw usageError('The memory store has no schema to migrate or verify.');
  if (config.store === 'cosmos') {
    // Nothing to apply for the store itself; the SQL transport beside it still has its schema.
    print('store: Cosmos DB creates its database and containers when it opens; no migrations');
    return { applied: [], alreadyApplied: [] };
  }
  if (config.store === 'sqlite') ensureDataDir(config.dataDir);
  try {
    return await migrateSqlMessageStore({
      dialect: config.store,
      ...(config.store === 'sqlite'
        ? { filename: config.storeSqlitePath }
        : { connectionString: config.postgresUrl ?? '' }),
      mode,
      onProgress: (progress) => print(migrationProgressLine(progress)),
    });
  } catch (error) {
    if (isSchemaOutOfDate(error)) throw error;
    throw new CliError(
      `Could not reach the message store (${describe(config)}): ${(error as Error).message}`,
    );
  }
}

function describeTransport(config: NimbusConfig): string {
  return config.transport === 'sqlite'
    ? `SQLite ${config.transportSqlitePath}`
    : 'PostgreSQL (NIMBUS_POSTGRES_URL)';
}

/** The transport schema (SQL transports only; null for the memory transport), with the same mode as the store. */
async function runTransport(
  config: NimbusConfig,
  mode: MigrationMode,
  print: (line: string) => void,
): Promise<MigrationRunResult | null> {
  if (config.transport === 'memory') return null;
  if (config.transport === 'sqlite') ensureDataDir(config.dataDir);
  try {
    return await migrateSqlTransport(
      config.transport === 'sqlite'
        ? { dialect: 'sqlite', path: config.transportSqlitePath }
        : { dialect: 'postgres', connectionString: config.postgresUrl ?? '' },
      { mode, onProgress: (progress) => print(migrationProgressLine(progress, 'transport')) },
    );
  } catch (error) {
    if (isSchemaOutOfDate(error)) throw error;
    throw new CliError(
      `Could not reach the transport database (${describeTransport(config)}): ${(error as Error).message}`,
    );
  }
}

export function storeCommand(print: (line: string) => void): Command {
  const store = new Command('store').description(
    'Apply or check the database schemas: the message store and the SQL transport.',
  );

  const migrate = store
    .command('migrate')
    .description('Apply every pending store migration (AutoApply), printing each step.')
    .option('--json', 'print the result as JSON');
  withBackendOptions(migrate).action(async (options: StoreOptions) => {
    const config = configFrom(options);
    const quiet = options.json ? () => undefined : print;
    const result = await run(config, 'AutoApply', quiet);
    const transport = await runTransport(config, 'AutoApply', quiet);
    if (options.json) {
      print(
        JSON.stringify({
          applied: result.applied,
          alreadyApplied: result.alreadyApplied,
          ...(transport
            ? { transport: { applied: transport.applied, alreadyApplied: transport.alreadyApplied } }
            : {}),
        }),
      );
    } else {
      print(
        result.applied.length === 0
          ? `store: schema is up to date (${result.alreadyApplied.length} migrations) at ${describe(config)}`
          : `store: applied ${result.applied.length} migration(s) at ${describe(config)}`,
      );
      if (transport) {
        print(
          transport.applied.length === 0
            ? `transport: schema is up to date (${transport.alreadyApplied.length} migrations) at ${describeTransport(config)}`
            : `transport: applied ${transport.applied.length} migration(s) at ${describeTransport(config)}`,
        );
      }
    }
  });

  const verify = store
    .command('verify')
    .description(
      `Check that every migration is applied (VerifyOnly); exits ${ExitCode.SchemaOutOfDate} listing the missing ones.`,
    )
    .option('--json', 'print the result as JSON');
  withBackendOptions(verify).action(async (options: StoreOptions) => {
    const config = configFrom(options);
    // One SchemaOutOfDateError class for every schema: which one is behind is the step that threw.
    let storeChecked = false;
    try {
      await run(config, 'VerifyOnly', print);
      storeChecked = true;
      await runTransport(config, 'VerifyOnly', print);
    } catch (error) {
      if (storeChecked && isSchemaOutOfDate(error)) {
        if (options.json)
          print(JSON.stringify({ upToDate: false, missing: [], transportMissing: error.unapplied }));
        else {
          print(
            `transport: ${error.unapplied.length} unapplied migration(s) at ${describeTransport(config)}:`,
          );
          for (const name of error.unapplied) print(`  missing ${name}`);
          print('Run `nimbus store migrate` to apply them.');
        }
        throw new CliError('', ExitCode.SchemaOutOfDate);
      }
      if (!isSchemaOutOfDate(error)) throw error;
      if (options.json) print(JSON.stringify({ upToDate: false, missing: error.unapplied }));
      else {
        print(`store: ${error.unapplied.length} unapplied migration(s) at ${describe(config)}:`);
        for (const name of error.unapplied) print(`  missing ${name}`);
        print('Run `nimbus store migrate` to apply them.');
      }
      throw new CliError('', ExitCode.SchemaOutOfDate);
    }
    if (options.json) print(JSON.stringify({ upToDate: true, missing: [] }));
    else {
      print(`store: schema is up to date (${ALL_MIGRATIONS.length} migrations) at ${describe(config)}`);
      if (config.transport !== 'memory') {
        print(
          `transport: schema is up to date (${TRANSPORT_MIGRATIONS.length} migrations) at ${describeTransport(config)}`,
        );
      }
    }
  });
  return store;
}
