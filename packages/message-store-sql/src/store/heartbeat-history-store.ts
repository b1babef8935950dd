import {
  type HeartbeatGap,
  type HeartbeatHistoryStore,
  type HeartbeatUptimeDay,
  heartbeatGapId,
  InvalidStoreArgumentError,
  uptimeDayId,
} from '@nimbus/message-store';
import { HEARTBEAT_SETTINGS_ID } from '@nimbus/message-store/provider';
import { toDateOrNull, toMs, toMsOrNull } from './document-codec.js';
import { ordinalCompare } from './query-helpers.js';
import type { StoreContext } from './store-context.js';

const DAY_MS = 86_400_000;
const utcDay = (date: Date) => Math.floor(toMs(date) / DAY_MS) * DAY_MS;

/** Folded heartbeat history; SQL has no TTL, so callers prune explicitly (and the fold does). */
export class SqlHeartbeatHistoryStore implements HeartbeatHistoryStore {
  readonly prunesHeartbeatHistoryAutomatically = false;

  constructor(private readonly context: StoreContext) {}

  private get db() {
    return this.context.dialect.db;
  }

  async getHeartbeatUptimeDays(fromDayUtc: Date): Promise<HeartbeatUptimeDay[]> {
    const rows = await this.db
      .selectFrom('heartbeat_uptime_days')
      .selectAll()
      .where('day_utc', '>=', utcDay(fromDayUtc))
      .execute();
    return rows
      .map((row) => {
        const dayUtc = new Date(row.day_utc);
        return {
          id: uptimeDayId(row.endpoint_id, dayUtc),
          endpointId: row.endpoint_id,
          dayUtc,
          expected: row.expected,
          received: row.received,
          missed: row.missed,
          observedSeconds: row.observed_seconds,
          longestGapSeconds: row.longest_gap_seconds,
          lastBeatUtc: toDateOrNull(row.last_beat_at),
        };
      })
      .sort((a, b) => ordinalCompare(a.endpointId, b.endpointId) || a.dayUtc.getTime() - b.dayUtc.getTime());
  }

  async upsertHeartbeatUptimeDays(days: readonly HeartbeatUptimeDay[]): Promise<boolean> {
    if (days == null) throw new InvalidStoreArgumentError('days', 'is required');
    if (days.length === 0) return true;
    await this.context.dialect.atomic(async (tx) => {
      for (const day of days) {
        const values = {
          expected: day.expected,
          received: day.received,
          missed: day.missed,
          observed_seconds: day.observedSeconds,
          longest_gap_seconds: day.longestGapSeconds,
          last_beat_at: toMsOrNull(day.lastBeatUtc),
        };
        await tx
          .insertInto('heartbeat_uptime_days')
          .values({ endpoint_id: day.endpointId, day_utc: utcDay(day.dayUtc), ...values })
          .onConflict((oc) => oc.columns(['endpoint_id', 'day_utc']).doUpdateSet(values))
          .execute();
      }
    });
    return true;
  }

  async getHeartbeatGaps(fromUtc: Date): Promise<HeartbeatGap[]> {
    const from = toMs(fromUtc);
    const rows = await this.db
      .selectFrom('heartbeat_gaps')
      .selectAll()
      .where((eb) => eb.or([eb('to_utc', 'is', null), eb('to_utc', '>=', from)]))
      .orderBy('from_utc', 'desc')
      .execute();
    return rows.map((row) => {
      const start = new Date(row.from_utc);
      return {
        id: heartbeatGapId(row.endpoint_id, start),
        endpointId: row.endpoint_id,
        fromUtc: start,
        toUtc: toDateOrNull(row.to_utc),
        sdkVersionBefore: row.sdk_version_before,
        sdkVersionAfter: row.sdk_version_after,
      };
    });
  }

  async upsertHeartbeatGaps(gaps: readonly HeartbeatGap[]): Promise<boolean> {
    if (gaps == null) throw new InvalidStoreArgumentError('gaps', 'is required');
    if (gaps.length === 0) return true;
    await this.context.dialect.atomic(async (tx) => {
      for (const gap of gaps) {
        const values = {
          to_utc: toMsOrNull(gap.toUtc),
          sdk_version_before: gap.sdkVersionBefore,
          sdk_version_after: gap.sdkVersionAfter,
        };
        await tx
          .insertInto('heartbeat_gaps')
          .values({ endpoint_id: gap.endpointId, from_utc: toMs(gap.fromUtc), ...values })
          .onConflict((oc) => oc.columns(['endpoint_id', 'from_utc']).doUpdateSet(values))
          .execute();
      }
    });
    return true;
  }

  async tryClaimHeartbeatHistoryFold(dueBefore: Date): Promise<boolean> {
    const now = this.context.clock.now();
    const due = toMs(dueBefore);
    const result = await this.db
      .insertInto('heartbeat_settings')
      .values({
        id: HEARTBEAT_SETTINGS_ID,
        enabled: 0,
        interval_seconds: 300,
        timeout_seconds: 60,
        last_sent_at: null,
        last_fold_at: now,
        updated_at: now,
      })
      .onConflict((oc) =>
        oc
          .column('id')
          .doUpdateSet({ last_fold_at: now })
          .where((eb) =>
            eb.or([
              eb('heartbeat_settings.last_fold_at', 'is', null),
              eb('heartbeat_settings.last_fold_at', '<=', due),
            ]),
          ),
      )
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
  }

  async pruneHeartbeatHistory(cutoffUtc: Date): Promise<void> {
    const cutoff = toMs(cutoffUtc);
    await this.context.dialect.atomic(async (tx) => {
      await tx.deleteFrom('heartbeat_uptime_days').where('day_utc', '<', utcDay(cutoffUtc)).execute();
      await tx
        .deleteFrom('heartbeat_gaps')
        .where('to_utc', 'is not', null)
        .where('to_utc', '<', cutoff)
        .execute();
    });
  }
}
