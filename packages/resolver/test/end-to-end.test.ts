import { createMemoryMessageStore } from '@nimbus/message-store';
import { describeResolverEndToEnd } from '../src/e2e/index.js';
import { onMemoryTransport } from './support/memory-transport.js';

describeResolverEndToEnd('memory store', {
  openStore: async () => createMemoryMessageStore({ env: {} }),
  openTransport: onMemoryTransport,
});
