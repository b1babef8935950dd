import {
  DEFAULT_HEARTBEAT_SETTINGS,
  type EndpointMetadata,
  type EndpointMetadataStore,
  type EndpointMetadataWrite,
  type Heartbeat,
  type HeartbeatOptIn,
  type HeartbeatOverviewItem,
  type HeartbeatSettings,
  type HeartbeatSettingsUpdate,
  HeartbeatStatus,
  type HeartbeatWrite,
  InvalidStoreArgumentError,
} from '@nimbus/message-store';
import {
  assertValidStoreEndpointId,
  HEARTBEAT_SETTINGS_ID,
  heartbeatOverviewItem,
  heartbeatRollup,
  MAX_HEARTBEATS_PER_ENDPOINT,
} from '@nimbus/message-store/provider';
import type { Selectable } from 'kysely';
import type { StoreDb } from '../dialect/sql-dialect.js';
import type { EndpointMetadataTable, HeartbeatSettingsTable, HeartbeatsTable } from '../schema/database.js';
import { decodeDocument, encodeDocument, toDateOrNull, toMs, toMsOrNull } from './document-codec.js';
import { chunks, ordinalCompare } from './query-helpers.js';
import type { StoreContext } from './store-context.js';

/** The metadata fields kept in `document_json`; the heartbeat flag and rollup have their own columns. */
type MetadataDocument = Omit<
  EndpointMetadata,
  'heartbeats' | 'isHeartbeatEnabled' | 'endpointHeartbeatStatus'
>;

function emptyDocument(endpointId: string): MetadataDocument {
  return {
    endpointId,
    endpointOwner: null,
    endpointOwnerTeam: null,
    endpointOwnerEmail: null,
    technicalContacts: [],
    subscriptionStatus: null,
  };
}

function toHeartbeat(row: Selectable<HeartbeatsTable>): Heartbeat {
  return {
    messageId: row.message_id,
    startTime: new Date(row.start_time),
    receivedTime: new Date(row.received_time),
    endTime: new Date(row.end_time),
    intervalSeconds: row.interval_seconds,
    sdkVersion: row.sdk_version,
    endpointHeartbeatStatus: row.status as HeartbeatStatus,
  };
}

function settingsFromRow(row: Selectable<HeartbeatSettingsTable> | undefined): HeartbeatSettings {
  if (row === undefined) return { ...DEFAULT_HEARTBEAT_SETTINGS };
  return {
    id: row.id,
    enabled: row.enabled === 1,
    intervalSeconds: row.interval_seconds,
    timeoutSeconds: row.timeout_seconds,
    lastSentAtUtc: toDateOrNull(row.last_sent_at),
    lastHeartbeatFoldAtUtc: toDateOrNull(row.last_fold_at),
    missedBeatsUntilOff: row.missed_beats_until_off,
  };
}

/** Endpoint ownership metadata, endpoint heartbeat probes and the platform heartbeat schedule. */
export class SqlEndpointMetadataStore implements EndpointMetadataStore {
  constructor(private readonly context: StoreContext) {}

  private get db() {
    return this.context.dialect.db;
  }

  private async withHeartbeats(rows: Selectable<EndpointMetadataTable>[]): Promise<EndpointMetadata[]> {
    const beats = new Map<string, Heartbeat[]>();
    for (const batch of chunks(
      rows.map((r) => r.endpoint_id),
      500,
    )) {
      const found = await this.db
        .selectFrom('heartbeats')
        .selectAll()
        .where('endpoint_id', 'in', batch)
        .orderBy('start_time', 'asc')
        .orderBy('id', 'asc')
        .execute();
      for (const row of found) {
        const list = beats.get(row.endpoint_id) ?? [];
        list.push(toHeartbeat(row));
        beats.set(row.endpoint_id, list);
      }
    }
    return rows.map((row) => ({
      ...decodeDocument<MetadataDocument>(row.document_json),
      isHeartbeatEnabled: row.is_heartbeat_enabled === null ? null : row.is_heartbeat_enabled === 1,
      endpointHeartbeatStatus: row.endpoint_heartbeat_status as HeartbeatStatus | null,
      heartbeats: beats.get(row.endpoint_id) ?? [],
    }));
  }

  async getEndpointMetadata(endpointId: string): Promise<EndpointMetadata | null> {
    const row = await this.db
      .selectFrom('endpoint_metadata')
      .selectAll()
      .where('endpoint_id', '=', endpointId)
      .executeTakeFirst();
    if (row === undefined) return null;
    const [metadata] = await this.withHeartbeats([row]);
    return metadata!;
  }

  async getMetadatas(endpointIds?: readonly string[]): Promise<EndpointMetadata[]> {
    if (endpointIds === undefined) {
      const rows = await this.db.selectFrom('endpoint_metadata').selectAll().orderBy('endpoint_id').execute();
      return this.withHeartbeats(rows);
    }
    const rows: Selectable<EndpointMetadataTable>[] = [];
    for (const batch of chunks([...new Set(endpointIds)], 500)) {
      rows.push(
        ...(await this.db
          .selectFrom('endpoint_metadata')
          .selectAll()
          .where('endpoint_id', 'in', batch)
          .execute()),
      );
    }
    return this.withHeartbeats(rows.sort((a, b) => ordinalCompare(a.endpoint_id, b.endpoint_id)));
  }

  async setEndpointMetadata(metadata: EndpointMetadataWrite): Promise<boolean> {
    assertValidStoreEndpointId(metadata.endpointId);
    const document: MetadataDocument = {
      endpointId: metadata.endpointId,
      endpointOwner: metadata.endpointOwner ?? null,
      endpointOwnerTeam: metadata.endpointOwnerTeam ?? null,
      endpointOwnerEmail: metadata.endpointOwnerEmail ?? null,
      technicalContacts: [...(metadata.technicalContacts ?? [])],
      subscriptionStatus: metadata.subscriptionStatus ?? null,
    };
    const values = {
      is_heartbeat_enabled: metadata.isHeartbeatEnabled == null ? null : metadata.isHeartbeatEnabled ? 1 : 0,
      endpoint_heartbeat_status: metadata.endpointHeartbeatStatus ?? null,
      updated_at: this.context.clock.now(),
      document_json: encodeDocument(document),
    };
    await this.db
      .insertInto('endpoint_metadata')
      .values({ endpoint_id: metadata.endpointId, ...values })
      .onConflict((oc) => oc.column('endpoint_id').doUpdateSet(values))
      .execute();
    return true;
  }

  async getMetadatasWithEnabledHeartbeat(): Promise<EndpointMetadata[]> {
    const rows = await this.db
      .selectFrom('endpoint_metadata')
      .selectAll()
      .where('is_heartbeat_enabled', '=', 1)
      .orderBy('endpoint_id')
      .execute();
    return rows.map((row) => ({
      ...decodeDocument<MetadataDocument>(row.document_json),
      isHeartbeatEnabled: true,
      endpointHeartbeatStatus: row.endpoint_heartbeat_status as HeartbeatStatus | null,
      heartbeats: [],
    }));
  }

  async enableHeartbeatOnEndpoint({ endpointId, enable }: HeartbeatOptIn): Promise<void> {
    assertValidStoreEndpointId(endpointId);
    const now = this.context.clock.now();
    await this.db
      .insertInto('endpoint_metadata')
      .values({
        endpoint_id: endpointId,
        is_heartbeat_enabled: enable ? 1 : 0,
        endpoint_heartbeat_status: null,
        updated_at: now,
        document_json: encodeDocument(emptyDocument(endpointId)),
      })
      .onConflict((oc) =>
        oc.column('endpoint_id').doUpdateSet({ is_heartbeat_enabled: enable ? 1 : 0, updated_at: now }),
      )
      .execute();
  }

  async setHeartbeat({ endpointId, heartbeat }: HeartbeatWrite): Promise<boolean> {
    if (heartbeat == null) throw new InvalidStoreArgumentError('heartbeat', 'is required');
    assertValidStoreEndpointId(endpointId);
    await this.context.dialect.atomic(async (tx) => {
      const existing = await this.context.dialect
        .forUpdate(
          tx
            .selectFrom('heartbeats')
            .select(['id', 'interval_seconds'])
            .where('endpoint_id', '=', endpointId)
            .where('message_id', '=', heartbeat.messageId),
        )
        .executeTakeFirst();
      const values = {
        start_time: toMs(heartbeat.startTime),
        received_time: toMs(heartbeat.receivedTime),
        end_time: toMs(heartbeat.endTime),
        status: heartbeat.endpointHeartbeatStatus,
        sdk_version: heartbeat.sdkVersion,
        // An answer carries 0: keep the interval the probe was sent with.
        interval_seconds:
          existing !== undefined && !(heartbeat.intervalSeconds > 0)
            ? existing.interval_seconds
            : heartbeat.intervalSeconds,
      };
      if (existing === undefined) {
        await tx
          .insertInto('heartbeats')
          .values({ endpoint_id: endpointId, message_id: heartbeat.messageId, ...values })
          .onConflict((oc) => oc.columns(['endpoint_id', 'message_id']).doUpdateSet(values))
          .execute();
      } else {
        await tx.updateTable('heartbeats').set(values).where('id', '=', existing.id).execute();
      }
      await this.prune(tx, endpointId);
      await tx
        .insertInto('endpoint_metadata')
        .values({
          endpoint_id: endpointId,
          is_heartbeat_enabled: null,
          endpoint_heartbeat_status: heartbeat.endpointHeartbeatStatus,
          updated_at: this.context.clock.now(),
          document_json: encodeDocument(emptyDocument(endpointId)),
        })
        .onConflict((oc) => oc.column('endpoint_id').doNothing())
        .execute();
      await this.recomputeRollup(tx, endpointId);
    });
    return true;
  }

  private async prune(tx: StoreDb, endpointId: string): Promise<void> {
    const keep = await tx
      .selectFrom('heartbeats')
      .select('id')
      .where('endpoint_id', '=', endpointId)
      .orderBy('start_time', 'desc')
      .orderBy('id', 'desc')
      .limit(MAX_HEARTBEATS_PER_ENDPOINT)
      .execute();
    if (keep.length < MAX_HEARTBEATS_PER_ENDPOINT) return;
    await tx
      .deleteFrom('heartbeats')
      .where('endpoint_id', '=', endpointId)
      .where(
        'id',
        'not in',
        keep.map((k) => k.id),
      )
      .execute();
  }

  private async recomputeRollup(tx: StoreDb, endpointId: string): Promise<void> {
    const rows = await tx
      .selectFrom('heartbeats')
      .selectAll()
      .where('endpoint_id', '=', endpointId)
      .execute();
    const current = await tx
      .selectFrom('endpoint_metadata')
      .select('endpoint_heartbeat_status')
      .where('endpoint_id', '=', endpointId)
      .executeTakeFirst();
    const status = heartbeatRollup(
      rows.map(toHeartbeat),
      (current?.endpoint_heartbeat_status as HeartbeatStatus) ?? null,
    );
    await tx
      .updateTable('endpoint_metadata')
      .set({ endpoint_heartbeat_status: status, updated_at: this.context.clock.now() })
      .where('endpoint_id', '=', endpointId)
      .execute();
  }

  async sweepTimedOutHeartbeats(cutoffUtc: Date): Promise<string[]> {
    const cutoff = toMs(cutoffUtc);
    const touched = await this.context.dialect.atomic(async (tx) => {
      const stale = await tx
        .selectFrom('heartbeats')
        .select('endpoint_id')
        .distinct()
        .where('status', '=', HeartbeatStatus.Pending)
        .where('start_time', '<=', cutoff)
        .execute();
      if (stale.length === 0) return [];
      await tx
        .updateTable('heartbeats')
        .set({ status: HeartbeatStatus.Off })
        .where('status', '=', HeartbeatStatus.Pending)
        .where('start_time', '<=', cutoff)
        .execute();
      const ids = stale.map((s) => s.endpoint_id).sort(ordinalCompare);
      for (const id of ids) await this.recomputeRollup(tx, id);
      return ids;
    });
    return touched;
  }

  async getHeartbeatSettings(): Promise<HeartbeatSettings> {
    const row = await this.db
      .selectFrom('heartbeat_settings')
      .selectAll()
      .where('id', '=', HEARTBEAT_SETTINGS_ID)
      .executeTakeFirst();
    return settingsFromRow(row);
  }

  async setHeartbeatSettings(settings: HeartbeatSettingsUpdate): Promise<boolean> {
    const now = this.context.clock.now();
    const values = {
      enabled: settings.enabled ? 1 : 0,
      interval_seconds: settings.intervalSeconds,
      timeout_seconds: settings.timeoutSeconds,
      updated_at: now,
      // Absent: a new row takes the column's default, an existing one keeps its value.
      ...(settings.missedBeatsUntilOff === undefined
        ? {}
        : { missed_beats_until_off: settings.missedBeatsUntilOff }),
    };
    const lastSent = toMsOrNull(settings.lastSentAtUtc);
    const lastFold = toMsOrNull(settings.lastHeartbeatFoldAtUtc);
    await this.db
      .insertInto('heartbeat_settings')
      .values({ id: HEARTBEAT_SETTINGS_ID, ...values, last_sent_at: lastSent, last_fold_at: lastFold })
      .onConflict((oc) =>
        oc.column('id').doUpdateSet({
          ...values,
          // A null claim stamp keeps the stored one: the claims own these columns.
          ...(lastSent === null ? {} : { last_sent_at: lastSent }),
          ...(lastFold === null ? {} : { last_fold_at: lastFold }),
        }),
      )
      .execute();
    return true;
  }

  async tryClaimHeartbeatSend(dueBefore: Date): Promise<boolean> {
    const due = toMs(dueBefore);
    const result = await this.db
      .updateTable('heartbeat_settings')
      .set({ last_sent_at: this.context.clock.now() })
      .where('id', '=', HEARTBEAT_SETTINGS_ID)
      .where('enabled', '=', 1)
      .where((eb) => eb.or([eb('last_sent_at', 'is', null), eb('last_sent_at', '<=', due)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async getHeartbeatOverview(): Promise<HeartbeatOverviewItem[]> {
    const all = await this.getMetadatas();
    return all.map(heartbeatOverviewItem).sort((a, b) => ordinalCompare(a.endpointId, b.endpointId));
  }
}
