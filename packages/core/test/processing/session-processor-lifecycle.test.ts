import { createMemoryTransport } from '@nimbus/transport-memory';
import { describeLifecycleConformance, holdingCalls } from '../../src/conformance/index.js';
import { currentHandlerSignal } from '../../src/engine/handler-context.js';
import { SessionProcessor, silentLogger, systemClock } from '../../src/index.js';
import { LockRenewer } from '../../src/processing/lock-renewer.js';
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

// The held work is the next renewal of a real memory-transport session's lock (every 20 ms here).
describeLifecycleConformance('LockRenewer', async (work) => {
  const transport = createMemoryTransport();
  await transport.applyTopology({ endpoints: [INPUT], routes: [] });
  await transport.publish([{ source: INPUT, messages: [message('s1', 'held')] }]);
  const session = await transport.acceptSession(INPUT, { waitMs: 1_000 });
  if (!session) throw new Error('the memory transport gave no session');
  const renewals = holdingCalls(session, ['renewLock'], () => work());
  return {
    component: new LockRenewer(renewals.proxy, systemClock, 60_000, () => undefined, 20),
    signalsWork: false,
    trigger: async () => renewals.arm(),
    cleanup: async () => {
      await session.release();
      await transport.close();
    },
  };
});
