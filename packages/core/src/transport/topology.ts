import type { Platform } from '../platform/platform.js';
import type { TransportCounts } from './transport.js';

/** A producer → consumer route for one event type: copies published by `source` reach `target`. */
export interface Route {
  readonly source: string;
  readonly eventTypeId: string;
  readonly target: string;
}

/** What a transport must provision: one input per endpoint (plus the Resolver's) and the routes. */
export interface Topology {
  readonly endpoints: readonly string[];
  readonly routes: readonly Route[];
}

export interface TopologyChanges {
  readonly addedEndpoints: readonly string[];
  readonly removedEndpoints: readonly string[];
  readonly addedRoutes: readonly Route[];
  readonly removedRoutes: readonly Route[];
  /**
   * Inputs of removed endpoints (the endpoint's own and its reply input) that still held messages when they were
   * removed. Transports that report this keep the messages: they come back if the endpoint is added again, and
   * can be purged then. Absent when nothing was retained (or the transport does not report it), so callers that
   * compare changes with an exact shape see no difference in the common case.
   */
  readonly retainedInputs?: readonly RetainedInput[];
}

/** A removed input that still holds messages, with how many of each kind. */
export interface RetainedInput {
  readonly input: string;
  readonly counts: TransportCounts;
}

/** Whether `counts` has anything at all. */
export function holdsMessages(counts: TransportCounts): boolean {
  return counts.active + counts.scheduled + counts.deadLettered + counts.parked > 0;
}

export function routeKey(route: Route): string {
  return `${route.source}\u0000${route.eventTypeId}\u0000${route.target}`;
}

/**
 * Derives the topology from a platform: a consumer C of X receives X from producer P only when P declares
 * it produces X; an endpoint never receives its own publishes.
 */
export function topologyFromPlatform(platform: Platform): Topology {
  const routes: Route[] = [];
  for (const type of platform.eventTypes) {
    for (const producer of platform.getProducers(type.id)) {
      for (const consumer of platform.getConsumers(type.id)) {
        if (consumer.id === producer.id) continue;
        routes.push({ source: producer.id, eventTypeId: type.id, target: consumer.id });
      }
    }
  }
  routes.sort((a, b) => routeKey(a).localeCompare(routeKey(b)));
  return { endpoints: platform.endpoints.map((e) => e.id).sort(), routes };
}

/** Compares the applied topology with the desired one. */
export function diffTopology(current: Topology, desired: Topology): TopologyChanges {
  const currentEndpoints = new Set(current.endpoints);
  const desiredEndpoints = new Set(desired.endpoints);
  const currentRoutes = new Map(current.routes.map((r) => [routeKey(r), r]));
  const desiredRoutes = new Map(desired.routes.map((r) => [routeKey(r), r]));
  return {
    addedEndpoints: desired.endpoints.filter((e) => !currentEndpoints.has(e)),
    removedEndpoints: current.endpoints.filter((e) => !desiredEndpoints.has(e)),
    addedRoutes: [...desiredRoutes].filter(([k]) => !currentRoutes.has(k)).map(([, r]) => r),
    removedRoutes: [...currentRoutes].filter(([k]) => !desiredRoutes.has(k)).map(([, r]) => r),
  };
}

export function hasChanges(changes: TopologyChanges): boolean {
  return (
    changes.addedEndpoints.length +
      changes.removedEndpoints.length +
      changes.addedRoutes.length +
      changes.removedRoutes.length >
    0
  );
}
