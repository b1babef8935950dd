import {
  createEnvelope,
  encodeEnvelope,
  Header,
  MessageType,
  silentLogger,
  topologyFromPlatform,
} from '@nimbus/core';
import { createEndpointHost, createSubscriber, Publisher } from '@nimbus/sdk';
import { createMemoryTransport } from '@nimbus/transport-memory';
import { describe, expect, it } from 'vitest';
import { OrderPlaced, order, platform } from './fixtures.js';
import { eventually, stopsAfterEach } from './support/host-fixtures.js';

const stops = stopsAfterEach();

describe('endpoint host (session processor + engine) with malformed input', () => {
  it('dead-letters messages with missing headers or an unparsable body, naming the problem, while other sessions keep processing', async () => {
    const transport = createMemoryTransport();
    await transport.applyTopology(topologyFromPlatform(platform));
    const handled: string[] = [];
    const subscriber = createSubscriber().on(OrderPlaced, (e) => void handled.push(e.orderId));
    const host = createEndpointHost({
      platform,
      endpoint: 'Billing',
      transport,
      subscriber,
      logger: silentLogger,
      processor: { maxConcurrentSessions: 2, acceptWaitMs: 20, sessionIdleTimeoutMs: 20 },
    });
    stops.push(
      () => host.stop(),
      () => transport.close(),
    );
    await host.start();

    const sales = new Publisher({ transport, endpoint: 'Sales', platform });
    await sales.publish(OrderPlaced, order(1, 'good-1'));
    // A copy addressed straight to Billing's input with no From header, and one with a broken body.
    const valid = encodeEnvelope(
      createEnvelope({
        messageId: 'bad-1',
        to: 'Billing',
        from: 'Sales',
        sessionId: 'bad-session',
        messageType: MessageType.EventRequest,
        eventId: 'e-bad',
        eventTypeId: 'OrderPlaced',
      }),
    );
    const { From: _dropped, ...noFrom } = valid.headers;
    await transport.publish([
      { source: 'Billing', messages: [{ ...valid, headers: noFrom }] },
      { source: 'Billing', messages: [{ ...valid, messageId: 'bad-2', body: '{"eventContent": ' }] },
    ]);
    await sales.publish(OrderPlaced, order(2, 'good-2'));
    await sales.publish(OrderPlaced, order(3, 'good-1'));

    await eventually(
      async () => handled.length === 3 && (await transport.peekDeadLetters('Billing')).length === 2,
    );
    expect(handled.sort()).toEqual(['o-1', 'o-2', 'o-3']);
    const dead = await transport.peekDeadLetters('Billing');
    const byId = new Map(dead.map((d) => [d.messageId, d.reason]));
    expect(byId.get('bad-1')).toBe(`Invalid message: missing required header '${Header.From}'`);
    expect(byId.get('bad-2')).toMatch(/^Invalid message: body is not valid JSON/);
    expect(host.processor.running).toBe(true);
  });

  it('refuses a subscriber with a handler for a type the endpoint does not consume', () => {
    const transport = createMemoryTransport();
    const subscriber = createSubscriber().on(OrderPlaced, () => undefined);
    expect(() => createEndpointHost({ platform, endpoint: 'Sales', transport, subscriber })).toThrow(
      /does not declare that it consumes it/,
    );
  });
});
