import { CliError } from '../exit-codes.js';

/**
 * Local servers (the Service Bus emulator, the local Cosmos server) are development tools, and the Azure providers
 * (`@nimbus/transport-azure-service-bus`, `@nimbus/message-store-cosmos`) pull the Azure SDK: none is a runtime
 * dependency of the CLI. They are optional peers loaded on first use and named when missing, so that a
 * production install stays lean.
 */
export async function importDevTool<T>(
  load: () => Promise<T>,
  what: string,
  packages: readonly string[],
  kind: 'dev tool' | 'provider' = 'dev tool',
): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (!isModuleNotFound(error)) throw error;
    const list = packages.join(' ');
    throw new CliError(
      kind === 'dev tool'
        ? `${what} needs ${packages.join(' and ')}, which is not installed (a development tool, left out of the CLI's runtime dependencies): npm install --save-dev ${list}`
        : `${what} needs ${packages.join(' and ')}, which is not installed (an optional provider of the CLI, so that installs for PostgreSQL or SQLite stay lean): npm install ${list}`,
    );
  }
}

function isModuleNotFound(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND';
}
