import type { HeartbeatHistoryStore } from '../contracts/heartbeat-history-store.js';
import { DEFAULT_HEARTBEAT_SETTINGS } from '../entities/heartbeat.js';
import { InvalidStoreArgumentError } from '../errors.js';
import { clone, type MemoryState, now, pairKey } from './state.js';

const utcDay = (at: Date) => Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());

export function createMemoryHeartbeatHistory(state: MemoryState): HeartbeatHistoryStore {
  return {
    prunesHeartbeatHistoryAutomatically: false,

    async getHeartbeatUptimeDays(fromDayUtc) {
      const from = utcDay(fromDayUtc);
      return [...state.uptimeDays.values()]
        .filter((d) => d.dayUtc.getTime() >= from)
        .sort(
          (a, b) =>
            (a.endpointId < b.endpointId ? -1 : a.endpointId > b.endpointId ? 1 : 0) ||
            a.dayUtc.getTime() - b.dayUtc.getTime(),
        )
        .map(clone);
    },

    async upsertHeartbeatUptimeDays(days) {
      if (days == null) throw new InvalidStoreArgumentError('days', 'is required');
      for (const day of days)
        state.uptimeDays.set(pairKey(day.endpointId, String(utcDay(day.dayUtc))), clone(day));
      return true;
    },

    async getHeartbeatGaps(fromUtc) {
      return [...state.gaps.values()]
        .filter((g) => g.toUtc === null || g.toUtc >= fromUtc)
        .sort((a, b) => b.fromUtc.getTime() - a.fromUtc.getTime())
        .map(clone);
    },

    async upsertHeartbeatGaps(gaps) {
      if (gaps == null) throw new InvalidStoreArgumentError('gaps', 'is required');
      for (const gap of gaps)
        state.gaps.set(pairKey(gap.endpointId, String(gap.fromUtc.getTime())), clone(gap));
      return true;
    },

    async tryClaimHeartbeatHistoryFold(dueBefore) {
      const current = state.heartbeatSettings ?? { ...DEFAULT_HEARTBEAT_SETTINGS };
      if (current.lastHeartbeatFoldAtUtc !== null && current.lastHeartbeatFoldAtUtc > dueBefore) return false;
      state.heartbeatSettings = { ...current, lastHeartbeatFoldAtUtc: now(state) };
      return true;
    },

    async pruneHeartbeatHistory(cutoffUtc) {
      const cutoffDay = utcDay(cutoffUtc);
      for (const [key, day] of state.uptimeDays)
        if (day.dayUtc.getTime() < cutoffDay) state.uptimeDays.delete(key);
      for (const [key, gap] of state.gaps)
        if (gap.toUtc !== null && gap.toUtc < cutoffUtc) state.gaps.delete(key);
    },
  };
}
