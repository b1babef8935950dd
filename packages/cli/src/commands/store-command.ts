import { mkdirSync } from 'node:fs';
import {
  ALL_MIGRATIONS,
  type MigrationMode,
  migrateSqlMessageStore,
  SchemaOutOfDateError,
} from '@nimbus/message-store-sql';
import { Command } from 'commander';
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
  return config.store === 'sqlite' ? `SQLite ${config.storeSqlitePath}` : 'PostgreSQL (NIMBUS_POSTGRES_URL)';
}

async function run(config: NimbusConfig, mode: MigrationMode, print: (line: string) => void) {
  if (config.store === 'memory') throw usageError('The memory store has no schema to migrate or verify.');
  if (config.store === 'cosmos') {
    throw usageError(
      'The Cosmos DB store creates its database and containers when it opens; there is no schema to migrate or verify.',
    );
  }
  if (config.store === 'sqlite') mkdirSync(config.dataDir, { recursive: true });
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
    if (error instanceof SchemaOutOfDateError) throw error;
    throw new CliError(
      `Could not reach the message store (${describe(config)}): ${(error as Error).message}`,
    );
  }
}

export function storeCommand(print: (line: string) => void): Command {
  const store = new Command('store').description('Apply or check the message store schema.');

  const migrate = store
    .command('migrate')
    .description('Apply every pending store migration (AutoApply), printing each step.')
    .option('--json', 'print the result as JSON');
  withBackendOptions(migrate).action(async (options: StoreOptions) => {
    const config = configFrom(options);
    const result = await run(config, 'AutoApply', options.json ? () => undefined : print);
    if (options.json) {
      print(JSON.stringify({ applied: result.applied, alreadyApplied: result.alreadyApplied }));
    } else {
      print(
        result.applied.length === 0
          ? `store: schema is up to date (${result.alreadyApplied.length} migrations) at ${describe(config)}`
          : `store: applied ${result.applied.length} migration(s) at ${describe(config)}`,
      );
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
    try {
      await run(config, 'VerifyOnly', print);
    } catch (error) {
      if (!(error instanceof SchemaOutOfDateError)) throw error;
      if (options.json) print(JSON.stringify({ upToDate: false, missing: error.unapplied }));
      else {
        print(`store: ${error.unapplied.length} unapplied migration(s) at ${describe(config)}:`);
        for (const name of error.unapplied) print(`  missing ${name}`);
        print('Run `nimbus store migrate` to apply them.');
      }
      throw new CliError('', ExitCode.SchemaOutOfDate);
    }
    if (options.json) print(JSON.stringify({ upToDate: true, missing: [] }));
    else print(`store: schema is up to date (${ALL_MIGRATIONS.length} migrations) at ${describe(config)}`);
  });
  return store;
}
