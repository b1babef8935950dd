import type { EndpointMetadataStore } from '../contracts/endpoint-metadata-store.js';
import type { EndpointMetadata } from '../entities/endpoint-metadata.js';
import {
  DEFAULT_HEARTBEAT_SETTINGS,
  HEARTBEAT_SETTINGS_ID,
  MAX_HEARTBEATS_PER_ENDPOINT,
} from '../entities/heartbeat.js';
import { HeartbeatStatus } from '../enums.js';
import { InvalidStoreArgumentError } from '../errors.js';
import { heartbeatOverviewItem, heartbeatRollup, newestHeartbeatsFirst } from '../heartbeat-rollup.js';
import { assertValidStoreEndpointId } from '../reserved-endpoint-ids.js';
import { clone, type MemoryState, now, type StoredMetadata } from './state.js';

const byEndpointId = (a: { endpointId: string }, b: { endpointId: string }) =>
  a.endpointId.toLowerCase().localeCompare(b.endpointId.toLowerCase()) ||
  (a.endpointId < b.endpointId ? -1 : a.endpointId > b.endpointId ? 1 : 0);

function emptyMetadata(endpointId: string): StoredMetadata {
  return {
    endpointId,
    endpointOwner: null,
    endpointOwnerTeam: null,
    endpointOwnerEmail: null,
    isHeartbeatEnabled: null,
    endpointHeartbeatStatus: null,
    technicalContacts: [],
    heartbeats: [],
    subscriptionStatus: null,
  };
}

function publicView(stored: StoredMetadata): EndpointMetadata {
  const copy = clone(stored);
  return {
    ...copy,
    heartbeats: [...copy.heartbeats].sort((a, b) => a.startTime.getTime() - b.startTime.getTime()),
  };
}

export function createMemoryEndpointMetadata(state: MemoryState): EndpointMetadataStore {
  const ensure = (endpointId: string): StoredMetadata => {
    assertValidStoreEndpointId(endpointId);
    let stored = state.metadata.get(endpointId);
    if (stored === undefined) {
      stored = emptyMetadata(endpointId);
      state.metadata.set(endpointId, stored);
    }
    return stored;
  };
  const settings = () => state.heartbeatSettings ?? { ...DEFAULT_HEARTBEAT_SETTINGS };

  return {
    async getEndpointMetadata(endpointId) {
      const stored = state.metadata.get(endpointId);
      return stored === undefined ? null : publicView(stored);
    },

    async getMetadatas(endpointIds) {
      const all = [...state.metadata.values()];
      const chosen = endpointIds === undefined ? all : all.filter((m) => endpointIds.includes(m.endpointId));
      return chosen.sort(byEndpointId).map(publicView);
    },

    async setEndpointMetadata(metadata) {
      const stored = ensure(metadata.endpointId);
      state.metadata.set(metadata.endpointId, {
        endpointId: metadata.endpointId,
        endpointOwner: metadata.endpointOwner ?? null,
        endpointOwnerTeam: metadata.endpointOwnerTeam ?? null,
        endpointOwnerEmail: metadata.endpointOwnerEmail ?? null,
        isHeartbeatEnabled: metadata.isHeartbeatEnabled ?? null,
        endpointHeartbeatStatus: metadata.endpointHeartbeatStatus ?? null,
        technicalContacts: clone([...(metadata.technicalContacts ?? [])]),
        subscriptionStatus: metadata.subscriptionStatus ?? null,
        heartbeats: stored.heartbeats,
      });
      return true;
    },

    async getMetadatasWithEnabledHeartbeat() {
      return [...state.metadata.values()]
        .filter((m) => m.isHeartbeatEnabled === true)
        .sort(byEndpointId)
        .map(publicView);
    },

    async enableHeartbeatOnEndpoint({ endpointId, enable }) {
      const stored = ensure(endpointId);
      state.metadata.set(endpointId, { ...stored, isHeartbeatEnabled: enable });
    },

    async setHeartbeat({ endpointId, heartbeat }) {
      if (heartbeat == null) throw new InvalidStoreArgumentError('heartbeat', 'is required');
      const stored = ensure(endpointId);
      const previous = stored.heartbeats.find((h) => h.messageId === heartbeat.messageId);
      const row = clone({
        ...heartbeat,
        intervalSeconds:
          previous !== undefined && heartbeat.intervalSeconds <= 0
            ? previous.intervalSeconds
            : heartbeat.intervalSeconds,
      });
      const rows = [...stored.heartbeats.filter((h) => h.messageId !== heartbeat.messageId), row];
      const kept = newestHeartbeatsFirst(rows).slice(0, MAX_HEARTBEATS_PER_ENDPOINT);
      state.metadata.set(endpointId, {
        ...stored,
        heartbeats: kept,
        endpointHeartbeatStatus: heartbeatRollup(kept, stored.endpointHeartbeatStatus),
      });
      return true;
    },

    async sweepTimedOutHeartbeats(cutoffUtc) {
      const touched: string[] = [];
      for (const stored of state.metadata.values()) {
        let changed = false;
        const rows = stored.heartbeats.map((h) => {
          if (h.endpointHeartbeatStatus !== HeartbeatStatus.Pending || h.startTime > cutoffUtc) return h;
          changed = true;
          return { ...h, endpointHeartbeatStatus: HeartbeatStatus.Off };
        });
        if (!changed) continue;
        state.metadata.set(stored.endpointId, {
          ...stored,
          heartbeats: rows,
          endpointHeartbeatStatus: heartbeatRollup(rows, stored.endpointHeartbeatStatus),
        });
        touched.push(stored.endpointId);
      }
      return touched;
    },

    async getHeartbeatSettings() {
      return clone(settings());
    },

    async setHeartbeatSettings(incoming) {
      const current = settings();
      state.heartbeatSettings = {
        id: incoming.id || HEARTBEAT_SETTINGS_ID,
        enabled: incoming.enabled,
        intervalSeconds: incoming.intervalSeconds,
        timeoutSeconds: incoming.timeoutSeconds,
        lastSentAtUtc: incoming.lastSentAtUtc ?? current.lastSentAtUtc,
        lastHeartbeatFoldAtUtc: incoming.lastHeartbeatFoldAtUtc ?? current.lastHeartbeatFoldAtUtc,
        missedBeatsUntilOff: incoming.missedBeatsUntilOff ?? current.missedBeatsUntilOff,
      };
      return true;
    },

    async tryClaimHeartbeatSend(dueBefore) {
      const current = settings();
      if (!current.enabled) return false;
      if (current.lastSentAtUtc !== null && current.lastSentAtUtc > dueBefore) return false;
      state.heartbeatSettings = { ...current, lastSentAtUtc: now(state) };
      return true;
    },

    async getHeartbeatOverview() {
      return [...state.metadata.values()].sort(byEndpointId).map((m) => heartbeatOverviewItem(publicView(m)));
    },
  };
}
