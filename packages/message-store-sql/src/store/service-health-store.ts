import {
  HeartbeatStatus,
  InvalidStoreArgumentError,
  type ServiceHealth,
  type ServiceHealthStore,
  type ServiceProbeClaim,
} from '@nimbus/message-store';
import { toDateOrNull, toMs, toMsOrNull } from './document-codec.js';
import { ordinalCompare } from './query-helpers.js';
import type { StoreContext } from './store-context.js';

function requireServiceId(serviceId: string | null | undefined): string {
  if (serviceId == null || serviceId.trim() === '') {
    throw new InvalidStoreArgumentError('serviceId', 'must be a non-blank string');
  }
  return serviceId;
}

/** Liveness of the platform's own services; claims are single conditional writes. */
export class SqlServiceHealthStore implements ServiceHealthStore {
  constructor(private readonly context: StoreContext) {}

  private get db() {
    return this.context.dialect.db;
  }

  async getServiceHealth(): Promise<ServiceHealth[]> {
    const rows = await this.db.selectFrom('service_health').selectAll().execute();
    return rows
      .map((row) => ({
        serviceId: row.service_id,
        status: row.status as HeartbeatStatus,
        version: row.version,
        lastProbeMessageId: row.last_probe_message_id,
        lastProbeSentUtc: toDateOrNull(row.last_probe_sent_at),
        lastSeenUtc: toDateOrNull(row.last_seen_at),
        roundTripMs: row.round_trip_ms,
      }))
      .sort((a, b) => ordinalCompare(a.serviceId, b.serviceId));
  }

  async tryClaimServiceProbe({ serviceId, dueBefore, probeMessageId }: ServiceProbeClaim): Promise<boolean> {
    requireServiceId(serviceId);
    const now = this.context.clock.now();
    const due = toMs(dueBefore);
    const result = await this.db
      .insertInto('service_health')
      .values({
        service_id: serviceId,
        status: HeartbeatStatus.Unknown,
        version: null,
        last_probe_message_id: probeMessageId,
        last_probe_sent_at: now,
        last_seen_at: null,
        round_trip_ms: null,
        updated_at: now,
      })
      .onConflict((oc) =>
        oc
          .column('service_id')
          .doUpdateSet({ last_probe_sent_at: now, last_probe_message_id: probeMessageId, updated_at: now })
          .where((eb) =>
            eb.or([
              eb('service_health.last_probe_sent_at', 'is', null),
              eb('service_health.last_probe_sent_at', '<=', due),
            ]),
          ),
      )
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
  }

  async setServiceHealth(health: ServiceHealth): Promise<boolean> {
    if (health == null) throw new InvalidStoreArgumentError('serviceHealth', 'is required');
    const serviceId = requireServiceId(health.serviceId);
    const now = this.context.clock.now();
    const outcome = {
      status: health.status,
      version: health.version,
      last_probe_message_id: null,
      last_seen_at: toMsOrNull(health.lastSeenUtc),
      round_trip_ms: health.roundTripMs,
      updated_at: now,
    };
    await this.db
      .insertInto('service_health')
      .values({ service_id: serviceId, ...outcome, last_probe_sent_at: null })
      .onConflict((oc) => oc.column('service_id').doUpdateSet(outcome))
      .execute();
    return true;
  }

  async sweepTimedOutServiceProbes(cutoffUtc: Date): Promise<string[]> {
    const cutoff = toMs(cutoffUtc);
    const touched = await this.context.dialect.atomic(async (tx) => {
      const due = await this.context.dialect
        .forUpdate(
          tx
            .selectFrom('service_health')
            .select('service_id')
            .where('last_probe_message_id', 'is not', null)
            .where('last_probe_sent_at', '<=', cutoff),
        )
        .execute();
      const ids = due.map((d) => d.service_id).sort(ordinalCompare);
      if (ids.length === 0) return ids;
      await tx
        .updateTable('service_health')
        .set({
          status: HeartbeatStatus.Off,
          last_probe_message_id: null,
          updated_at: this.context.clock.now(),
        })
        .where('service_id', 'in', ids)
        .execute();
      return ids;
    });
    return touched;
  }
}
