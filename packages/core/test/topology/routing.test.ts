import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  defineEndpoint,
  defineEvent,
  definePlatform,
  Header,
  hasChanges,
  MessageType,
  type TransportMessage,
  topologyFromPlatform,
} from '../../src/index.js';
import { diffTopology, routeMessage } from '../../src/transport-spi.js';

const Ping = defineEvent('Ping', { schema: z.object({}) });
const platform = definePlatform([
  defineEndpoint('A', { produces: [Ping], consumes: [Ping] }),
  defineEndpoint('B', { consumes: [Ping] }),
  defineEndpoint('C', { consumes: [Ping] }),
]);
const topology = topologyFromPlatform(platform);

function message(headers: Record<string, string>): TransportMessage {
  return { messageId: 'm', sessionId: 's', correlationId: 'c', headers, body: '{}' };
}

describe('topology from a platform', () => {
  it('routes each producer to each other consumer, never to itself', () => {
    expect(topology.routes).toEqual([
      { source: 'A', eventTypeId: 'Ping', target: 'B' },
      { source: 'A', eventTypeId: 'Ping', target: 'C' },
    ]);
    expect(topology.endpoints).toEqual(['A', 'B', 'C']);
  });

  it('diffs applied and desired topology', () => {
    const changes = diffTopology({ endpoints: ['A', 'Old'], routes: [] }, topology);
    expect(changes.addedEndpoints).toEqual(['B', 'C']);
    expect(changes.removedEndpoints).toEqual(['Old']);
    expect(changes.addedRoutes).toHaveLength(2);
    expect(hasChanges(diffTopology(topology, topology))).toBe(false);
  });
});

describe('routing rule', () => {
  it('fans an original publish out to each consumer with its own EventId, plus Resolver copies', () => {
    const deliveries = routeMessage(
      topology,
      'A',
      message({
        [Header.To]: 'Ping',
        [Header.EventTypeId]: 'Ping',
        [Header.MessageType]: MessageType.EventRequest,
      }),
    );
    expect(deliveries.map((d) => d.input)).toEqual(['B', 'Resolver', 'C', 'Resolver']);
    const [toB, , toC] = deliveries;
    expect(toB!.message.headers[Header.To]).toBe('B');
    expect(toB!.message.headers[Header.From]).toBe('A');
    expect(toB!.message.headers[Header.EventId]).not.toBe(toC!.message.headers[Header.EventId]);
    expect(deliveries[1]!.message).toBe(toB!.message);
  });

  it('refuses to re-forward a copy that already has a From, naming why', () => {
    expect(() =>
      routeMessage(topology, 'A', message({ [Header.To]: 'Ping', [Header.EventTypeId]: 'Ping', From: 'B' })),
    ).toThrow(/cannot be routed: it already has From 'B'/);
  });

  it('refuses a publish nobody consumes, naming the event type and the source', () => {
    expect(() =>
      routeMessage(topology, 'B', message({ [Header.To]: 'Ping', [Header.EventTypeId]: 'Ping' })),
    ).toThrow(/no endpoint subscribes to 'Ping' from 'B'/);
  });

  it('refuses a message without headers, from an unknown source, or an event without correlation id', () => {
    expect(() => routeMessage(topology, 'A', message({}))).toThrow(/it has no 'To' header/);
    expect(() =>
      routeMessage(topology, 'Nobody', message({ [Header.To]: 'Ping', [Header.EventTypeId]: 'Ping' })),
    ).toThrow(/'Nobody' is neither an endpoint of the topology nor a platform address/);
    expect(() =>
      routeMessage(topology, 'A', {
        ...message({ [Header.To]: 'Ping', [Header.EventTypeId]: 'Ping' }),
        correlationId: null,
      }),
    ).toThrow(/an event needs a correlation id/);
    expect(() => routeMessage(topology, 'A', message({ [Header.To]: 'Ping' }))).toThrow(
      /an event needs an 'EventTypeId' header/,
    );
  });

  it('sends Resolver-bound responses to the Resolver stamped with the source', () => {
    const [delivery] = routeMessage(topology, 'B', message({ [Header.To]: 'Resolver' }));
    expect(delivery?.input).toBe('Resolver');
    expect(delivery?.message.headers[Header.From]).toBe('B');
  });

  it('brings Retry and Continuation requests back to the source input', () => {
    for (const address of ['Retry', 'Continuation']) {
      const deliveries = routeMessage(topology, 'B', message({ [Header.To]: address }));
      expect(deliveries).toHaveLength(1);
      expect(deliveries[0]?.input).toBe('B');
      expect(deliveries[0]?.message.headers).toMatchObject({ [Header.To]: 'B', [Header.From]: address });
    }
  });

  it('delivers own-address requests to the input and the Resolver', () => {
    expect(
      routeMessage(topology, 'B', message({ [Header.To]: 'B', From: 'Manager' })).map((d) => d.input),
    ).toEqual(['B', 'Resolver']);
  });

  it('delivers replies only to the reply input', () => {
    expect(routeMessage(topology, 'B', message({ [Header.To]: 'B-reply' })).map((d) => d.input)).toEqual([
      'B-reply',
    ]);
  });
});
