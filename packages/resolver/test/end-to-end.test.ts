import { createMemoryMessageStore } from '@nimbus/message-store';
import { describeResolverEndToEnd } from './support/end-to-end-scenarios.js';

describeResolverEndToEnd('memory store', async () => createMemoryMessageStore({ env: {} }));
