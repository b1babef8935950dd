import { randomUUID } from 'node:crypto';
import { CosmosClient } from '@azure/cosmos';
import type { ConformanceStoreFactory } from '@nimbus/message-store/conformance';
import { afterAll } from 'vitest';
import { type CosmosMessageStore, createCosmosMessageStore } from '../../src/index.js';
import {
  type LocalCosmosServer,
  type LocalCosmosServerOptions,
  startLocalCosmosServer,
} from '../../src/local-server/index.js';

export interface CosmosTestServer {
  readonly server: LocalCosmosServer;
  /** A client of the real @azure/cosmos SDK that trusts the server's certificate. */
  client(): CosmosClient;
  /** A store on a fresh database of its own. */
  openStore(
    options?: Parameters<typeof createCosmosMessageStore>[0],
  ): Promise<{ store: CosmosMessageStore; cleanup(): Promise<void> }>;
  readonly factory: ConformanceStoreFactory<CosmosMessageStore>;
}

/** One local Cosmos server for the test file (stopped after it), a fresh database for every store. */
export async function startCosmosTestServer(
  options: LocalCosmosServerOptions = {},
): Promise<CosmosTestServer> {
  const server = await startLocalCosmosServer(options);
  const clients: CosmosClient[] = [];
  afterAll(async () => {
    for (const c of clients) c.dispose();
    await server.close();
  });
  const client = () => {
    const c = new CosmosClient({
      endpoint: server.endpoint,
      key: server.key,
      agent: server.agent,
      connectionPolicy: {
        enableEndpointDiscovery: false,
        retryOptions: {
          maxRetryAttemptCount: 9,
          fixedRetryIntervalInMilliseconds: 0,
          maxWaitTimeInSeconds: 30,
        },
      },
    });
    clients.push(c);
    return c;
  };
  const shared = client();
  const openStore: CosmosTestServer['openStore'] = async (storeOptions = {}) => {
    const databaseId = `t-${randomUUID()}`;
    const store = await createCosmosMessageStore({ client: shared, databaseId, env: {}, ...storeOptions });
    return {
      store,
      cleanup: async () => {
        await store.close();
        await shared.database(databaseId).delete();
      },
    };
  };
  return {
    server,
    client,
    openStore,
    factory: ({ clock, retention }) => openStore({ clock, retention }),
  };
}
