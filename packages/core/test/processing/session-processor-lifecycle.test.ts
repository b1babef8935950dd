import { createMemoryTransport } from '@nimbus/transport-memory';
import { describeLifecycleConformance } from '../../src/conformance/index.js';
import { currentHandlerSignal } from '../../src/engine/handler-context.js';
import { SessionProcessor, silentLogger } from '../../src/index.js';
import { INPUT, message } from './processor-fixtures.js';

describeLifecycleConformance('SessionProcessor', async (work) => {
  const transport = createMemoryTransport();
  await transport.applyTopology({ endpoints: [INPUT], routes: [] });
  const component = new SessionProcessor({
    transport,
    input: INPUT,
    logger: silentLogger,
    acceptWaitMs: 50,
    handler: {
      async handleMessage(session, received) {
        await work(currentHandlerSignal());
        await session.complete(received);
      },
    },
  });
  return {
    component,
    signalsWork: true,
    trigger: () => transport.publish([{ source: INPUT, messages: [message('s1', 'held')] }]),
    cleanup: () => transport.close(),
  };
});
