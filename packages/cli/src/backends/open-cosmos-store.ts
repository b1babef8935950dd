import type { OpenMessageStore } from '@nimbus/message-store';
import { CliError } from '../exit-codes.js';
import { importDevTool } from './import-dev-tool.js';

/**
 * `--store cosmos`: the account from NIMBUS_COSMOS_ACCOUNT_ENDPOINT (Entra sign-in) or
 * NIMBUS_COSMOS_CONNECTION_STRING; with neither, `nimbus dev` starts the local Cosmos server in-process.
 */
export async function openCosmosStore(options: {
  readonly localCosmosWhenUnconfigured?: boolean;
  readonly print?: (line: string) => void;
}): Promise<OpenMessageStore> {
  // Loaded on first use: the CLI does not load the Azure SDK unless the Cosmos store is chosen.
  const { COSMOS_ENV, createCosmosMessageStore } = await importDevTool(
    () => import('@nimbus/message-store-cosmos'),
    '`--store cosmos`',
    ['@nimbus/message-store-cosmos'],
    'provider',
  );
  const configured = Boolean(
    process.env[COSMOS_ENV.accountEndpoint] || process.env[COSMOS_ENV.connectionString],
  );
  try {
    if (configured) return await createCosmosMessageStore();
    if (!options.localCosmosWhenUnconfigured) {
      throw new CliError(
        `--store cosmos needs ${COSMOS_ENV.accountEndpoint} (Entra sign-in) or ${COSMOS_ENV.connectionString} in the environment; only \`nimbus dev\` starts a local Cosmos server without them.`,
      );
    }
    const store = await importDevTool(
      async () => (await import('@nimbus/message-store-cosmos/local-server')).openLocalCosmosMessageStore(),
      '`nimbus dev --store cosmos` without an account',
      ['@vercel/cosmosdb-server', 'selfsigned'],
    );
    options.print?.(
      `Cosmos DB: no account configured, using the local Cosmos server at ${store.localEndpoint} (in this process, data in memory: gone when dev stops)`,
    );
    return store;
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`Could not open the Cosmos DB message store: ${(error as Error).message}`);
  }
}
