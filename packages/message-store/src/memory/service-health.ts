import type { ServiceHealthStore } from '../contracts/service-health-store.js';
import { HeartbeatStatus } from '../enums.js';
import { InvalidStoreArgumentError } from '../errors.js';
import { clone, type MemoryState, now } from './state.js';

function requireServiceId(serviceId: string | null | undefined): asserts serviceId is string {
  if (typeof serviceId !== 'string' || serviceId.trim() === '') {
    throw new InvalidStoreArgumentError('serviceId', 'must be a non-blank string');
  }
}

export function createMemoryServiceHealth(state: MemoryState): ServiceHealthStore {
  return {
    async getServiceHealth() {
      return [...state.serviceHealth.values()]
        .sort((a, b) => (a.serviceId < b.serviceId ? -1 : a.serviceId > b.serviceId ? 1 : 0))
        .map(clone);
    },

    async tryClaimServiceProbe({ serviceId, dueBefore, probeMessageId }) {
      requireServiceId(serviceId);
      const current = state.serviceHealth.get(serviceId);
      if (current?.lastProbeSentUtc != null && current.lastProbeSentUtc > dueBefore) return false;
      state.serviceHealth.set(serviceId, {
        serviceId,
        status: current?.status ?? HeartbeatStatus.Unknown,
        version: current?.version ?? null,
        lastSeenUtc: current?.lastSeenUtc ?? null,
        roundTripMs: current?.roundTripMs ?? null,
        lastProbeSentUtc: now(state),
        lastProbeMessageId: probeMessageId,
      });
      return true;
    },

    async setServiceHealth(health) {
      if (health == null) throw new InvalidStoreArgumentError('health', 'is required');
      requireServiceId(health.serviceId);
      const current = state.serviceHealth.get(health.serviceId);
      state.serviceHealth.set(health.serviceId, {
        serviceId: health.serviceId,
        status: health.status,
        version: health.version ?? null,
        lastSeenUtc: health.lastSeenUtc ? new Date(health.lastSeenUtc) : null,
        roundTripMs: health.roundTripMs ?? null,
        lastProbeMessageId: null,
        lastProbeSentUtc: current?.lastProbeSentUtc ?? null,
      });
      return true;
    },

    async sweepTimedOutServiceProbes(cutoffUtc) {
      const touched: string[] = [];
      for (const row of state.serviceHealth.values()) {
        if (
          row.lastProbeMessageId === null ||
          row.lastProbeSentUtc === null ||
          row.lastProbeSentUtc > cutoffUtc
        )
          continue;
        state.serviceHealth.set(row.serviceId, {
          ...row,
          status: HeartbeatStatus.Off,
          lastProbeMessageId: null,
        });
        touched.push(row.serviceId);
      }
      return touched;
    },
  };
}
