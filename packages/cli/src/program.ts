import { isNimBusError, NimBusErrorCode } from '@nimbus/core';
import { Command, CommanderError } from 'commander';
import { deadLettersCommand } from './commands/dead-letters-command.js';
import { devCommand } from './commands/dev-command.js';
import { eventsCommand } from './commands/events-command.js';
import { inputsCommand } from './commands/inputs-command.js';
import { publishCommand } from './commands/publish-command.js';
import { resolverCommand, webappCommand } from './commands/service-commands.js';
import { storeCommand } from './commands/store-command.js';
import { tokensCommand } from './commands/tokens-command.js';
import { topologyCommand } from './commands/topology-command.js';
import { CliError, ExitCode } from './exit-codes.js';

export const CLI_VERSION = '0.1.0';

export interface CliIo {
  readonly out: (line: string) => void;
  readonly err: (text: string) => void;
}

const processIo: CliIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (text) => process.stderr.write(text),
};

/** The `nimbus` command tree. Every command and group throws instead of exiting, so `runCli` owns exit codes. */
export function buildProgram(io: CliIo = processIo): Command {
  const program = new Command('nimbus')
    .description('NimBus: run the local stack, manage topology and store schema, and operate on events.')
    .version(CLI_VERSION);
  for (const command of [
    devCommand(io.out),
    resolverCommand(io.out),
    webappCommand(io.out),
    topologyCommand(io.out),
    storeCommand(io.out),
    publishCommand(io.out),
    eventsCommand(io.out),
    deadLettersCommand(io.out),
    inputsCommand(io.out),
    tokensCommand(io.out),
  ]) {
    program.addCommand(command);
  }
  // Added commands do not inherit settings, so every command gets them explicitly.
  const configure = (command: Command) => {
    command
      .exitOverride()
      .showHelpAfterError('(run with --help for usage)')
      .configureOutput({ writeOut: (text) => io.out(text.replace(/\n$/, '')), writeErr: io.err });
    for (const sub of command.commands) configure(sub);
  };
  configure(program);
  return program;
}

/** Maps what a command threw to an exit code and prints one clear line for it. */
export function exitCodeFor(error: unknown, io: CliIo = processIo): number {
  if (error instanceof CommanderError) {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return ExitCode.Ok;
    // Commander already printed the problem (unknown option, missing argument, bare group help).
    return ExitCode.Usage;
  }
  if (error instanceof CliError) {
    if (error.message) io.err(`nimbus: ${error.message}\n`);
    return error.exitCode;
  }
  if (isNimBusError(error, NimBusErrorCode.SchemaOutOfDate)) {
    // A VerifyOnly start found a schema behind (the WebApp's own tables, say): the documented exit 3.
    io.err(`nimbus: ${error.message}\n`);
    return ExitCode.SchemaOutOfDate;
  }
  if (isNimBusError(error, NimBusErrorCode.EventValidation)) {
    io.err(`nimbus: ${error.message}\n`);
    return ExitCode.Usage;
  }
  io.err(`nimbus: ${(error as Error)?.message ?? String(error)}\n`);
  return ExitCode.Failed;
}

/** Runs the CLI with `argv` (as `process.argv`) and resolves the exit code. */
export async function runCli(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  try {
    await buildProgram(io).parseAsync([...argv]);
    return ExitCode.Ok;
  } catch (error) {
    return exitCodeFor(error, io);
  }
}
