import { createMemoryMessageStore, DEFAULT_HEARTBEAT_SETTINGS, HeartbeatStatus } from '@nimbus/message-store';
import { createHeartbeatScheduler } from '@nimbus/resolver';
import { expect, it } from 'vitest';
import { Bus, CONSUMER } from '../src/e2e/index.js';
import { onMemoryTransport } from './support/memory-transport.js';

it('a scheduled probe is answered by the real engine without the handler and settles the row On', async () => {
  const store = createMemoryMessageStore({ env: {} });
  const bus = await new Bus(store, await onMemoryTransport()).start();
  await store.setHeartbeatSettings({ ...DEFAULT_HEARTBEAT_SETTINGS, enabled: true });
  const scheduler = createHeartbeatScheduler({
    transport: bus.transport,
    store,
    catalog: [CONSUMER],
    clock: bus.clock,
  });
  expect((await scheduler.tick()).probesSent).toBe(1);
  bus.clock.advance(120);
  await bus.pump();

  const metadata = await store.getEndpointMetadata(CONSUMER);
  expect(metadata?.endpointHeartbeatStatus).toBe(HeartbeatStatus.On);
  const [row] = metadata!.heartbeats;
  expect(row).toMatchObject({ endpointHeartbeatStatus: HeartbeatStatus.On, intervalSeconds: 300 });
  expect(row!.sdkVersion).not.toBe('');
  expect(row!.endTime.getTime() - row!.startTime.getTime()).toBe(120);
  expect(bus.handled).toEqual([]);
  // Heartbeats never become tracking rows.
  expect(
    (
      await store.getEventsByFilter({
        filter: { endpointId: CONSUMER },
        continuationToken: null,
        maxItems: 100,
      })
    ).events,
  ).toEqual([]);
  const [health] = await store.getServiceHealth();
  expect(health?.status).toBe(HeartbeatStatus.On);
});
