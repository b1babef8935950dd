import { CosmosClient } from '@azure/cosmos';
import {
  type CosmosMessageStore,
  type CosmosMessageStoreOptions,
  createCosmosMessageStore,
} from '../create-cosmos-message-store.js';
import { type LocalCosmosServerOptions, startLocalCosmosServer } from './start-local-cosmos-server.js';

export interface LocalCosmosStore extends CosmosMessageStore {
  /** Where the local server listens (`https://127.0.0.1:PORT/`). */
  readonly localEndpoint: string;
}

/**
 * Starts the local Cosmos server in this process and opens the store on it; `close()` stops both.
 * For `nimbus dev --store cosmos` without an account: the data lives in memory only.
 */
export async function openLocalCosmosMessageStore(
  options: Omit<CosmosMessageStoreOptions, 'client'> & { readonly server?: LocalCosmosServerOptions } = {},
): Promise<LocalCosmosStore> {
  const server = await startLocalCosmosServer(options.server);
  const client = new CosmosClient({
    endpoint: server.endpoint,
    key: server.key,
    agent: server.agent,
    connectionPolicy: { enableEndpointDiscovery: false },
  });
  try {
    const store = await createCosmosMessageStore({ ...options, client });
    // The store's own object with two additions: where the server listens, and a close that stops it too.
    return new Proxy(store as LocalCosmosStore, {
      get(target, property, receiver) {
        if (property === 'localEndpoint') return server.endpoint;
        if (property === 'close') {
          return async () => {
            await target.close();
            client.dispose();
            await server.close();
          };
        }
        return Reflect.get(target, property, receiver);
      },
    });
  } catch (error) {
    client.dispose();
    await server.close();
    throw error;
  }
}
