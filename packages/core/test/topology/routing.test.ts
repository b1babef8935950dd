import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  defineEndpoint,
  defineEvent,
  definePlatform,
  diffTopology,
  Header,
  hasChanges,
  MessageType,
  routeMessage,
  type TransportMessage,
  topologyFromPlatform,
} from '../../src/index.js';

const Ping = defineEvent('Ping', { schema: z.object({}) });
const platform = definePlatform([
  defineEndpoint('A', { produces: [Ping], consumes: [Ping] }),
  defineEndpoint('B', { consumes: [Ping] }),
  defineEndpoint('C', { consumes: [Ping] }),
]);
const topology = topologyFromPlatform(platform);

function message(headers: Record<string, string>): TransportMessage {
  return { messageId: 'm', sessionId: 's', correlationId: null, headers, body: '{}' };
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

  it('does not re-forward a copy that already has a From', () => {
    expect(
      routeMessage(topology, 'A', message({ [Header.To]: 'Ping', [Header.EventTypeId]: 'Ping', From: 'B' })),
    ).toEqual([]);
  });

  it('drops a publish nobody consumes', () => {
    expect(
      routeMessage(topology, 'B', message({ [Header.To]: 'Ping', [Header.EventTypeId]: 'Ping' })),
    ).toEqual([]);
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
