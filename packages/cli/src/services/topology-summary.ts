import { hasChanges, type Route, type TopologyChanges } from '@nimbus/core';

function route(r: Route): string {
  return `${r.source} --${r.eventTypeId}--> ${r.target}`;
}

/** Human lines describing what applying a topology changed; one line "no changes" when nothing did. */
export function describeTopologyChanges(changes: TopologyChanges): string[] {
  if (!hasChanges(changes)) return ['Topology is up to date: no changes.'];
  return [
    ...changes.addedEndpoints.map((e) => `+ endpoint ${e}`),
    ...changes.removedEndpoints.map((e) => `- endpoint ${e}`),
    ...changes.addedRoutes.map((r) => `+ route ${route(r)}`),
    ...changes.removedRoutes.map((r) => `- route ${route(r)}`),
  ];
}
