import { isNimBusError, NimBusErrorCode } from '@nimbus/core';
import type { MigrationMode, MigrationRunResult, SchemaOutOfDateError } from '@nimbus/sql';
import { Command } from 'commander';
import type { NimbusConfig } from '../config.js';
import { CliError, ExitCode, usageError } from '../exit-codes.js';
import { migrationProgressLine } from '../migration-progress.js';
import { configFrom, withBackendOptions } from './backend-options.js';
import { type ReliabilityTarget, type SchemaPart, schemaParts } from './schema-parts.js';

interface StoreOptions {
  dataDir?: string;
  store?: string;
  json?: boolean;
  reliability?: string;
  outboxTable?: string;
  inboxTable?: string;
  reliabilitySchema?: string;
}

function partsFor(options: StoreOptions): SchemaPart[] {
  const config: NimbusConfig = configFrom(options);
  if (config.store === 'memory') throw usageError('The memory store has no schema to migrate or verify.');
  const reliability: ReliabilityTarget | null = options.reliability
    ? {
        database: options.reliability,
        ...(options.outboxTable ? { outboxTable: options.outboxTable } : {}),
        ...(options.inboxTable ? { inboxTable: options.inboxTable } : {}),
        ...(options.reliabilitySchema ? { schema: options.reliabilitySchema } : {}),
      }
    : null;
  if (!reliability && (options.outboxTable || options.inboxTable || options.reliabilitySchema))
    throw usageError(
      '--outbox-table, --inbox-table and --reliability-schema go with --reliability <database>.',
    );
  return schemaParts(config, reliability);
}

/** Runs one part; an unreachable database is exit 1 naming where, a schema behind is returned to the caller. */
async function runPart(
  part: SchemaPart,
  mode: MigrationMode,
  print: (line: string) => void,
): Promise<MigrationRunResult | SchemaOutOfDateError> {
  try {
    return await part.run(mode, (progress) => print(migrationProgressLine(progress, part.label)));
  } catch (error) {
    if (isNimBusError(error, NimBusErrorCode.SchemaOutOfDate) && 'unapplied' in error)
      return error as SchemaOutOfDateError;
    if (isNimBusError(error, NimBusErrorCode.InvalidOption)) throw usageError(error.message);
    throw new CliError(
      `Could not reach the ${part.label} database (${part.where}): ${(error as Error).message}`,
    );
  }
}

function withReliabilityOptions(command: Command): Command {
  return command
    .option(
      '--reliability <database>',
      "also the outbox and inbox tables of an adapter's database: a SQLite file, or 'postgres' for NIMBUS_POSTGRES_URL",
    )
    .option('--outbox-table <name>', 'outbox table with --reliability (default nimbus_outbox)')
    .option('--inbox-table <name>', 'inbox table with --reliability (default nimbus_inbox)')
    .option('--reliability-schema <schema>', 'PostgreSQL schema of those tables (default: the search path)');
}

export function storeCommand(print: (line: string) => void): Command {
  const store = new Command('store').description(
    'Apply or check every database schema: the message store, the SQL transport, the WebApp tables, and with --reliability an outbox and inbox.',
  );

  const migrate = store
    .command('migrate')
    .description('Apply every pending migration (AutoApply), printing each step.')
    .option('--json', 'print the result as JSON');
  withReliabilityOptions(withBackendOptions(migrate)).action(async (options: StoreOptions) => {
    const parts = partsFor(options);
    const quiet = options.json ? () => undefined : print;
    const results: Record<string, MigrationRunResult> = {};
    for (const part of parts) {
      const result = await runPart(part, 'AutoApply', quiet);
      if (result instanceof Error) throw result;
      results[part.key] = result;
      if (part.note) quiet(part.note);
      else
        quiet(
          result.applied.length === 0
            ? `${part.label}: schema is up to date (${result.alreadyApplied.length} migrations) at ${part.where}`
            : `${part.label}: applied ${result.applied.length} migration(s) at ${part.where}`,
        );
    }
    if (options.json) {
      const { store: storeResult, ...others } = results;
      const brief = (r: MigrationRunResult) => ({ applied: r.applied, alreadyApplied: r.alreadyApplied });
      print(
        JSON.stringify({
          ...brief(storeResult ?? { applied: [], alreadyApplied: [] }),
          ...Object.fromEntries(Object.entries(others).map(([key, r]) => [key, brief(r)])),
        }),
      );
    }
  });

  const verify = store
    .command('verify')
    .description(
      `Check that every migration of every schema is applied (VerifyOnly); exits ${ExitCode.SchemaOutOfDate} listing the missing ones.`,
    )
    .option('--json', 'print the result as JSON');
  withReliabilityOptions(withBackendOptions(verify)).action(async (options: StoreOptions) => {
    const parts = partsFor(options);
    const quiet = options.json ? () => undefined : print;
    const missing: Record<string, readonly string[]> = {};
    for (const part of parts) {
      const result = await runPart(part, 'VerifyOnly', quiet);
      if (result instanceof Error) {
        missing[part.key] = result.unapplied;
        quiet(`${part.label}: ${result.unapplied.length} unapplied migration(s) at ${part.where}:`);
        for (const name of result.unapplied) quiet(`  missing ${name}`);
      } else {
        missing[part.key] = [];
        if (part.note) quiet(part.note);
        else
          quiet(
            `${part.label}: schema is up to date (${result.alreadyApplied.length} migrations) at ${part.where}`,
          );
      }
    }
    const upToDate = Object.values(missing).every((names) => names.length === 0);
    if (options.json) print(JSON.stringify({ upToDate, missing: missing.store ?? [], schemas: missing }));
    if (upToDate) return;
    quiet('Run `nimbus store migrate` to apply them.');
    throw new CliError('', ExitCode.SchemaOutOfDate);
  });
  return store;
}
