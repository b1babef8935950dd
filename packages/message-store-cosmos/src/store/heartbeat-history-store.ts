import {
  type HeartbeatGap,
  type HeartbeatHistoryStore,
  type HeartbeatUptimeDay,
  heartbeatGapId,
  InvalidStoreArgumentError,
  uptimeDayId,
} from '@nimbus/message-store';
import type { CosmosStoreContext } from './cosmos-context.js';
import { readHeartbeatSettings } from './endpoint-metadata-store.js';
import { MetadataKind } from './layout.js';
import { MetadataDocuments, reviveDates, toStored } from './metadata-documents.js';

type Body = Record<string, unknown>;

const utcDay = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));

function strip<T>(body: Body, dates: string[]): T {
  const { kind: _kind, key: _key, ...fields } = reviveDates<Body>(body, dates);
  return { ...fields, id: body.key } as T;
}

/**
 * Folded heartbeat history in the `Metadata` container: `uptime-day` and `heartbeat-gap` documents.
 * Pruned by `pruneHeartbeatHistory` (the Resolver's fold calls it), not by item TTL.
 */
export class CosmosHeartbeatHistoryStore implements HeartbeatHistoryStore {
  readonly prunesHeartbeatHistoryAutomatically = false;
  readonly #days: MetadataDocuments;
  readonly #gaps: MetadataDocuments;
  readonly #settings: MetadataDocuments;

  constructor(private readonly context: CosmosStoreContext) {
    this.#days = new MetadataDocuments(context, MetadataKind.UptimeDay);
    this.#gaps = new MetadataDocuments(context, MetadataKind.HeartbeatGap);
    this.#settings = new MetadataDocuments(context, MetadataKind.HeartbeatSettings);
  }

  async getHeartbeatUptimeDays(fromDayUtc: Date): Promise<HeartbeatUptimeDay[]> {
    const from = utcDay(fromDayUtc).toISOString();
    const days = (await this.#days.list('c.dayUtc >= @from', [{ name: '@from', value: from }])).map((b) =>
      strip<HeartbeatUptimeDay>(b, ['dayUtc', 'lastBeatUtc']),
    );
    return days.sort(
      (a, b) =>
        (a.endpointId < b.endpointId ? -1 : a.endpointId > b.endpointId ? 1 : 0) ||
        a.dayUtc.getTime() - b.dayUtc.getTime(),
    );
  }

  async upsertHeartbeatUptimeDays(days: readonly HeartbeatUptimeDay[]): Promise<boolean> {
    if (days == null) throw new InvalidStoreArgumentError('days', 'is required');
    for (const day of days) {
      const key = uptimeDayId(day.endpointId, utcDay(day.dayUtc));
      await this.#days.upsert(key, { ...(toStored(day) as Body), key: day.id });
    }
    return true;
  }

  async getHeartbeatGaps(fromUtc: Date): Promise<HeartbeatGap[]> {
    const gaps = (
      await this.#gaps.list('(IS_NULL(c.toUtc) OR c.toUtc >= @from)', [
        { name: '@from', value: fromUtc.toISOString() },
      ])
    ).map((b) => strip<HeartbeatGap>(b, ['fromUtc', 'toUtc']));
    return gaps.sort((a, b) => b.fromUtc.getTime() - a.fromUtc.getTime());
  }

  async upsertHeartbeatGaps(gaps: readonly HeartbeatGap[]): Promise<boolean> {
    if (gaps == null) throw new InvalidStoreArgumentError('gaps', 'is required');
    for (const gap of gaps) {
      await this.#gaps.upsert(heartbeatGapId(gap.endpointId, gap.fromUtc), {
        ...(toStored(gap) as Body),
        key: gap.id,
      });
    }
    return true;
  }

  async tryClaimHeartbeatHistoryFold(dueBefore: Date): Promise<boolean> {
    const { settings, etag } = await readHeartbeatSettings(this.#settings);
    if (settings.lastHeartbeatFoldAtUtc !== null && settings.lastHeartbeatFoldAtUtc > dueBefore) return false;
    const claimed = { ...settings, lastHeartbeatFoldAtUtc: this.context.now() };
    return this.#settings.writeIfUnchanged(settings.id, etag, toStored(claimed) as Body);
  }

  async pruneHeartbeatHistory(cutoffUtc: Date): Promise<void> {
    const cutoffDay = utcDay(cutoffUtc).toISOString();
    for (const body of await this.#days.list('c.dayUtc < @cut', [{ name: '@cut', value: cutoffDay }])) {
      await this.#days.delete(uptimeDayId(String(body.endpointId), new Date(String(body.dayUtc))));
    }
    const closed = await this.#gaps.list('NOT IS_NULL(c.toUtc) AND c.toUtc < @cut', [
      { name: '@cut', value: cutoffUtc.toISOString() },
    ]);
    for (const body of closed)
      await this.#gaps.delete(heartbeatGapId(String(body.endpointId), new Date(String(body.fromUtc))));
  }
}
