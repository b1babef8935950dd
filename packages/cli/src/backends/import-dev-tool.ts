import { CliError } from '../exit-codes.js';

/**
 * Local servers (the Service Bus emulator, the local Cosmos server) are development tools, not runtime
 * dependencies of the CLI: they are optional peers that `nimbus dev` loads on first use and names when
 * they are missing, so that a production install stays lean.
 */
export async function importDevTool<T>(
  load: () => Promise<T>,
  what: string,
  packages: readonly string[],
): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (!isModuleNotFound(error)) throw error;
    throw new CliError(
      `${what} needs ${packages.join(' and ')}, which is not installed (a development tool, left out of the CLI's runtime dependencies): npm install --save-dev ${packages.join(' ')}`,
    );
  }
}

function isModuleNotFound(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
}
