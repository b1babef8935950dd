import type { EndpointMetadataStore, HeartbeatGap, HeartbeatHistoryStore } from '@nimbus/message-store';
import { foldHeartbeatHistory } from './fold-heartbeat-history.js';

export const HEARTBEAT_HISTORY_DAYS = 90;

/**
 * Folds every catalog endpoint's retained probe rows into uptime days and gaps, once per interval across
 * instances (atomic fold claim). Returns false when the store keeps no history or another instance folded.
 */
export async function runHeartbeatHistoryFold(
  store: Pick<EndpointMetadataStore, 'getMetadatas'> & Partial<HeartbeatHistoryStore>,
  catalog: readonly string[],
  dueBefore: Date,
  now: Date,
  intervalSeconds: number,
): Promise<boolean> {
  const history = store as Partial<HeartbeatHistoryStore>;
  if (
    typeof history.tryClaimHeartbeatHistoryFold !== 'function' ||
    typeof history.getHeartbeatUptimeDays !== 'function' ||
    typeof history.getHeartbeatGaps !== 'function' ||
    typeof history.upsertHeartbeatGaps !== 'function' ||
    typeof history.upsertHeartbeatUptimeDays !== 'function'
  ) {
    return false;
  }
  if (!(await history.tryClaimHeartbeatHistoryFold(dueBefore))) return false;
  const historyStart = new Date(now.getTime() - HEARTBEAT_HISTORY_DAYS * 86_400_000);
  const inCatalog = new Set(catalog.map((id) => id.toLowerCase()));
  const records = (await store.getMetadatas()).filter((m) => inCatalog.has(m.endpointId.toLowerCase()));
  // An explicit opt-out under any casing wins over a duplicate record that did not opt out.
  const optedOut = new Set(
    records.filter((m) => m.isHeartbeatEnabled === false).map((m) => m.endpointId.toLowerCase()),
  );
  const days = await history.getHeartbeatUptimeDays(historyStart);
  const gaps = await history.getHeartbeatGaps(historyStart);
  const allDays = [];
  const allGaps = [];
  for (const metadata of records) {
    if (optedOut.has(metadata.endpointId.toLowerCase())) continue;
    const key = metadata.endpointId.toLowerCase();
    const own = days.filter((d) => d.endpointId.toLowerCase() === key);
    const openGap = newestOpenGap(gaps.filter((g) => g.endpointId.toLowerCase() === key));
    const result = foldHeartbeatHistory(
      metadata.endpointId,
      metadata.heartbeats,
      own,
      openGap,
      historyStart,
      intervalSeconds,
    );
    allDays.push(...result.days);
    allGaps.push(...result.gaps);
  }
  // Gaps first: the days carry the watermark, so a failed day write replays the gap transitions safely.
  await history.upsertHeartbeatGaps(allGaps);
  await history.upsertHeartbeatUptimeDays(allDays);
  if (!history.prunesHeartbeatHistoryAutomatically && typeof history.pruneHeartbeatHistory === 'function') {
    await history.pruneHeartbeatHistory(historyStart);
  }
  return true;
}

function newestOpenGap(gaps: readonly HeartbeatGap[]): HeartbeatGap | null {
  let newest: HeartbeatGap | null = null;
  for (const gap of gaps) {
    if (gap.toUtc !== null) continue;
    if (!newest || gap.fromUtc > newest.fromUtc) newest = gap;
  }
  return newest;
}
