import { type CliResult, runCli } from '../../../packages/cli/test/support/cli-process.js';

export type { CliResult };

/** Runs one `nimbus` command to completion (the CLI tests' runner, with the chaos suite's longer bound). */
export function runCliOnce(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  timeoutMs = 60_000,
): Promise<CliResult> {
  return runCli(args, env, timeoutMs);
}
