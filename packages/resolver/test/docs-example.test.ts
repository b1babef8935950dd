import { Addresses, createEnvelope, encodeEnvelope, MessageType, silentLogger } from '@nimbus/core';
import {
  createMemoryMessageStore,
  InProcessStateChangeNotifier,
  ResolutionStatus,
} from '@nimbus/message-store';
import { createHeartbeatScheduler, createResolver } from '@nimbus/resolver';
import { createMemoryTransport } from '@nimbus/transport-memory';
import { expect, it } from 'vitest';

it('docs/resolver.md and docs/heartbeat.md example runs', async () => {
  // #region resolver-example
  const transport = createMemoryTransport();
  await transport.applyTopology({ endpoints: ['Crm', 'Billing'], routes: [] });
  // The store is the one emitter of state changes: it tells the notifier after each committed write.
  const notifier = new InProcessStateChangeNotifier();
  notifier.subscribe((change) => console.log('live update', change));
  const store = createMemoryMessageStore({ notifier });

  const resolver = createResolver({ transport, store, logger: silentLogger });
  await resolver.start();

  // Billing reports an outcome; routing delivers it to the Resolver input with From = Billing.
  const outcome = createEnvelope({
    messageId: 'm-1',
    to: Addresses.resolver,
    sessionId: 'customer-42',
    messageType: MessageType.ResolutionResponse,
    eventId: 'e-1',
    eventTypeId: 'Crm.CustomerChanged',
  });
  await transport.publish([{ source: 'Billing', messages: [encodeEnvelope(outcome)] }]);
  // #endregion resolver-example

  for (let i = 0; i < 500 && resolver.stats.recorded === 0; i++) await new Promise((r) => setTimeout(r, 5));
  const row = await store.getEvent({ endpointId: 'Billing', eventId: 'e-1' });
  expect(row?.resolutionStatus).toBe(ResolutionStatus.Completed);

  // #region heartbeat-example
  await store.setHeartbeatSettings({
    ...(await store.getHeartbeatSettings()),
    enabled: true,
    intervalSeconds: 300,
  });
  const heartbeat = createHeartbeatScheduler({ transport, store, catalog: ['Crm', 'Billing'] });
  const tick = await heartbeat.tick(); // start() runs this every 30 s
  console.log(tick.probesSent, 'probes sent; Resolver probed:', tick.resolverProbed);
  // #endregion heartbeat-example

  expect(tick).toMatchObject({ probesSent: 2, resolverProbed: true });
  for (let i = 0; i < 500; i++) {
    const [health] = await store.getServiceHealth();
    if (health?.status === 'On') break;
    await new Promise((r) => setTimeout(r, 5));
  }
  expect((await store.getServiceHealth())[0]?.status).toBe('On');
  await resolver.stop();
  await transport.close();
});
