import { replyInputOf, type Topology, type TopologyChanges } from '@nimbus/core';
import { diffTopology, holdsMessages } from '@nimbus/core/transport-spi';
import type { MemoryCore } from './memory-core.js';

/** Replaces the topology; inputs of removed endpoints that still hold messages are kept and reported. */
export function applyTopology(core: MemoryCore, topology: Topology): TopologyChanges {
  core.lifecycle.assertUsable('applyTopology');
  const diff = diffTopology(core.topology, topology);
  const retainedInputs = diff.removedEndpoints
    .flatMap((endpoint) => [endpoint, replyInputOf(endpoint)])
    .map((input) => ({ input, counts: core.views.counts(input) }))
    .filter((retained) => holdsMessages(retained.counts));
  core.replaceTopology(topology);
  return retainedInputs.length > 0 ? { ...diff, retainedInputs } : diff;
}
