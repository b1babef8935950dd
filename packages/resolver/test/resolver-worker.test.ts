import { encodeEnvelope, isNimBusError, MessageType, NimBusErrorCode, RESOLVER_INPUT } from '@nimbus/core';
import {
  createMemoryMessageStore,
  InProcessStateChangeNotifier,
  ResolutionStatus,
  type StateChange,
} from '@nimbus/message-store';
import { createHeartbeatScheduler, createResolver, ResolverOptionsError } from '@nimbus/resolver';
import { createMemoryTransport } from '@nimbus/transport-memory';
import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from './support/harness.js';
import { eventRequest, responseTo } from './support/messages.js';

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const changedIdOf = (change: StateChange) => (change.kind === 'endpoint' ? change.endpointId : change.kind);

describe('createResolver', () => {
  it('refuses a notifier with a NimBusError naming where it goes instead (the store notifies)', () => {
    const transport = createMemoryTransport();
    const store = createMemoryMessageStore({ env: {} });
    const notifier = new InProcessStateChangeNotifier();
    const refused = () => createResolver({ transport, store, notifier } as never);
    expect(refused).toThrow(/'notifier' is not an option; give the notifier to the store/);
    try {
      refused();
    } catch (error) {
      expect(isNimBusError(error, NimBusErrorCode.InvalidOption)).toBe(true);
    }
    expect(() => createHeartbeatScheduler({ transport, store, catalog: [], notifier } as never)).toThrow(
      /createHeartbeatScheduler: 'notifier' is not an option/,
    );
  });

  it('refuses arguments that cannot work, naming what is wrong', () => {
    const transport = createMemoryTransport();
    expect(() => createResolver({ transport, store: {} as never })).toThrow(ResolverOptionsError);
    expect(() => createResolver({ transport, store: {} as never })).toThrow(
      /store must implement writeBatch/,
    );
    expect(() =>
      createResolver({ transport: {} as never, store: createMemoryMessageStore({ env: {} }) }),
    ).toThrow(/transport must implement acceptSession/);
  });

  it('runs as a worker over many sessions, keeps each event in order and stops cleanly', async () => {
    const transport = createMemoryTransport();
    await transport.applyTopology({ endpoints: ENDPOINTS, routes: [] });
    const notified: string[] = [];
    // The store is the one emitter: it tells the notifier after each committed write the Resolver makes.
    const store = createMemoryMessageStore({
      env: {},
      notifier: { notify: async (change) => void notified.push(changedIdOf(change)) },
    });
    const resolver = createResolver({
      transport,
      store,
      logger: { debug() {}, info() {}, warn() {}, error() {} },
      options: { maxConcurrentSessions: 4, sessionIdleTimeoutMs: 50, acceptWaitMs: 50 },
    });
    const requests = Array.from({ length: 40 }, (_, i) => eventRequest({ sessionId: `customer-${i % 8}` }));
    for (const request of requests) {
      // The request copy and its outcome travel in the same session, request first.
      await transport.publish([{ source: 'Billing', messages: [encodeEnvelope(request)] }]);
      const outcome = responseTo(request, MessageType.ResolutionResponse);
      await transport.publish([{ source: 'Billing', messages: [encodeEnvelope(outcome)] }]);
    }
    await resolver.start();
    await until(() => resolver.stats.recorded === 80);
    await resolver.stop();
    expect(resolver.running).toBe(false);
    for (const request of requests) {
      expect(
        (await store.getEvent({ endpointId: 'Billing', eventId: request.eventId! }))?.resolutionStatus,
      ).toBe(ResolutionStatus.Completed);
    }
    expect(resolver.stats).toMatchObject({ refused: 0, deadLettered: 0, rescheduled: 0 });
    expect(resolver.stats.processor.sessionsAccepted).toBeGreaterThanOrEqual(8);
    // Receive batches are written with one store batch each, and notify once per batch and endpoint.
    expect(resolver.stats.batches).toBeGreaterThan(0);
    expect(notified.length).toBeLessThan(80);
    expect(new Set(notified)).toEqual(new Set(['Billing']));
    expect(await transport.counts(RESOLVER_INPUT)).toMatchObject({ active: 0, deadLettered: 0 });
  });
});
