import type { OpenMessageStore } from '@nimbus/message-store';
import { openLocalCosmosMessageStore } from '@nimbus/message-store-cosmos/local-server';
import { afterAll, beforeAll, describe } from 'vitest';
import { describeResolverEndToEnd } from '../src/e2e/index.js';
import { onMemoryTransport } from './support/memory-transport.js';

describe('Cosmos DB', () => {
  let store: OpenMessageStore;

  beforeAll(async () => {
    // The real @azure/cosmos SDK against the local Cosmos server, started in this process over https.
    store = await openLocalCosmosMessageStore({ env: {} });
  });

  afterAll(async () => {
    await store?.close();
  });

  // One database for the suite: every bus uses its own session and fresh event ids.
  describeResolverEndToEnd('Cosmos DB store (local Cosmos server)', {
    openStore: async () => store,
    openTransport: onMemoryTransport,
  });
});
