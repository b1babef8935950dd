import type {
  EndpointMetadata,
  EndpointMetadataStore,
  EndpointMetadataWrite,
  Heartbeat,
  HeartbeatOptIn,
  HeartbeatOverviewItem,
  HeartbeatSettings,
  HeartbeatSettingsUpdate,
  HeartbeatWrite,
} from '@nimbus/message-store';
import {
  DEFAULT_HEARTBEAT_SETTINGS,
  HeartbeatStatus,
  InvalidStoreArgumentError,
} from '@nimbus/message-store';
import {
  assertValidStoreEndpointId,
  HEARTBEAT_SETTINGS_ID,
  heartbeatOverviewItem,
  heartbeatRollup,
  MAX_HEARTBEATS_PER_ENDPOINT,
  newestHeartbeatsFirst,
} from '@nimbus/message-store/provider';
import type { CosmosStoreContext } from './cosmos-context.js';
import { MetadataKind } from './layout.js';
import { MetadataDocuments, reviveDates, toStored } from './metadata-documents.js';

type Body = Record<string, unknown>;

const HEARTBEAT_DATES = ['startTime', 'receivedTime', 'endTime'];
const SETTINGS_DATES = ['lastSentAtUtc', 'lastHeartbeatFoldAtUtc'];

function toMetadata(body: Body): EndpointMetadata {
  const { id: _id, kind: _kind, ...fields } = reviveDates<Body>(body, []);
  const heartbeats = ((fields.heartbeats as Body[] | undefined) ?? [])
    .map((h) => reviveDates<Heartbeat>(h, HEARTBEAT_DATES))
    .sort((a, b) => a.startTime.getTime() - b.startTime.getTime());
  return { ...(fields as unknown as EndpointMetadata), heartbeats };
}

function blankMetadata(endpointId: string): EndpointMetadata {
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

const byEndpointId = (a: { endpointId: string }, b: { endpointId: string }) =>
  a.endpointId.toLowerCase().localeCompare(b.endpointId.toLowerCase()) ||
  (a.endpointId < b.endpointId ? -1 : a.endpointId > b.endpointId ? 1 : 0);

/** Endpoint metadata documents (probe rows embedded, newest 20 kept) and the heartbeat settings singleton. */
export class CosmosEndpointMetadataStore implements EndpointMetadataStore {
  readonly #endpoints: MetadataDocuments;
  readonly #settings: MetadataDocuments;

  constructor(private readonly context: CosmosStoreContext) {
    this.#endpoints = new MetadataDocuments(context, MetadataKind.Endpoint);
    this.#settings = new MetadataDocuments(context, MetadataKind.HeartbeatSettings);
  }

  async #change(endpointId: string, change: (current: EndpointMetadata) => EndpointMetadata | null) {
    assertValidStoreEndpointId(endpointId);
    const written = await this.#endpoints.update(endpointId, (body) => {
      const next = change(body === null ? blankMetadata(endpointId) : toMetadata(body));
      return next === null ? null : (toStored(next) as Body);
    });
    return written !== null;
  }

  async getEndpointMetadata(endpointId: string): Promise<EndpointMetadata | null> {
    if (!endpointId) return null;
    const stored = await this.#endpoints.read(endpointId);
    return stored === null ? null : toMetadata(stored.body);
  }

  async getMetadatas(endpointIds?: readonly string[]): Promise<EndpointMetadata[]> {
    const all = (await this.#endpoints.list()).map(toMetadata);
    const chosen = endpointIds === undefined ? all : all.filter((m) => endpointIds.includes(m.endpointId));
    return chosen.sort(byEndpointId);
  }

  async setEndpointMetadata(metadata: EndpointMetadataWrite): Promise<boolean> {
    return this.#change(metadata.endpointId, (current) => ({
      ...blankMetadata(metadata.endpointId),
      endpointOwner: metadata.endpointOwner ?? null,
      endpointOwnerTeam: metadata.endpointOwnerTeam ?? null,
      endpointOwnerEmail: metadata.endpointOwnerEmail ?? null,
      isHeartbeatEnabled: metadata.isHeartbeatEnabled ?? null,
      endpointHeartbeatStatus: metadata.endpointHeartbeatStatus ?? null,
      technicalContacts: [...(metadata.technicalContacts ?? [])],
      subscriptionStatus: metadata.subscriptionStatus ?? null,
      heartbeats: current.heartbeats,
    }));
  }

  async getMetadatasWithEnabledHeartbeat(): Promise<EndpointMetadata[]> {
    return (await this.getMetadatas()).filter((m) => m.isHeartbeatEnabled === true);
  }

  async enableHeartbeatOnEndpoint({ endpointId, enable }: HeartbeatOptIn): Promise<void> {
    await this.#change(endpointId, (current) => ({ ...current, isHeartbeatEnabled: enable }));
  }

  async setHeartbeat({ endpointId, heartbeat }: HeartbeatWrite): Promise<boolean> {
    if (heartbeat == null) throw new InvalidStoreArgumentError('heartbeat', 'is required');
    return this.#change(endpointId, (current) => {
      const previous = current.heartbeats.find((h) => h.messageId === heartbeat.messageId);
      const keepInterval = previous !== undefined && heartbeat.intervalSeconds <= 0;
      const row = {
        ...heartbeat,
        intervalSeconds: keepInterval ? previous.intervalSeconds : heartbeat.intervalSeconds,
      };
      const others = current.heartbeats.filter((h) => h.messageId !== heartbeat.messageId);
      const kept = newestHeartbeatsFirst([...others, row]).slice(0, MAX_HEARTBEATS_PER_ENDPOINT);
      return {
        ...current,
        heartbeats: kept,
        endpointHeartbeatStatus: heartbeatRollup(kept, current.endpointHeartbeatStatus),
      };
    });
  }

  async sweepTimedOutHeartbeats(cutoffUtc: Date): Promise<string[]> {
    const touched: string[] = [];
    for (const metadata of await this.getMetadatas()) {
      const timedOut = (h: Heartbeat) =>
        h.endpointHeartbeatStatus === HeartbeatStatus.Pending && h.startTime <= cutoffUtc;
      if (!metadata.heartbeats.some(timedOut)) continue;
      const changed = await this.#change(metadata.endpointId, (current) => {
        if (!current.heartbeats.some(timedOut)) return null;
        const rows = current.heartbeats.map((h) =>
          timedOut(h) ? { ...h, endpointHeartbeatStatus: HeartbeatStatus.Off } : h,
        );
        return {
          ...current,
          heartbeats: rows,
          endpointHeartbeatStatus: heartbeatRollup(rows, current.endpointHeartbeatStatus),
        };
      });
      if (changed) touched.push(metadata.endpointId);
    }
    return touched;
  }

  async getHeartbeatSettings(): Promise<HeartbeatSettings> {
    return (await readHeartbeatSettings(this.#settings)).settings;
  }

  async setHeartbeatSettings(incoming: HeartbeatSettingsUpdate): Promise<boolean> {
    await this.#settings.update(HEARTBEAT_SETTINGS_ID, (body) => {
      const current = body === null ? DEFAULT_HEARTBEAT_SETTINGS : settingsOf(body);
      return toStored({
        id: incoming.id || HEARTBEAT_SETTINGS_ID,
        enabled: incoming.enabled,
        intervalSeconds: incoming.intervalSeconds,
        timeoutSeconds: incoming.timeoutSeconds,
        lastSentAtUtc: incoming.lastSentAtUtc ?? current.lastSentAtUtc,
        lastHeartbeatFoldAtUtc: incoming.lastHeartbeatFoldAtUtc ?? current.lastHeartbeatFoldAtUtc,
        missedBeatsUntilOff: incoming.missedBeatsUntilOff ?? current.missedBeatsUntilOff,
      }) as Body;
    });
    return true;
  }

  async tryClaimHeartbeatSend(dueBefore: Date): Promise<boolean> {
    const { settings, etag } = await readHeartbeatSettings(this.#settings);
    if (!settings.enabled) return false;
    if (settings.lastSentAtUtc !== null && settings.lastSentAtUtc > dueBefore) return false;
    return this.#settings.writeIfUnchanged(
      HEARTBEAT_SETTINGS_ID,
      etag,
      toStored({ ...settings, lastSentAtUtc: this.context.now() }) as Body,
    );
  }

  async getHeartbeatOverview(): Promise<HeartbeatOverviewItem[]> {
    return (await this.getMetadatas()).map(heartbeatOverviewItem);
  }
}

function settingsOf(body: Body): HeartbeatSettings {
  const { kind: _kind, ...fields } = reviveDates<Body>(body, SETTINGS_DATES);
  return {
    ...DEFAULT_HEARTBEAT_SETTINGS,
    ...(fields as object),
    id: HEARTBEAT_SETTINGS_ID,
  } as HeartbeatSettings;
}

/** The settings singleton (defaults when absent) and its etag (null when absent), for claims. */
export async function readHeartbeatSettings(
  documents: MetadataDocuments,
): Promise<{ settings: HeartbeatSettings; etag: string | null }> {
  const stored = await documents.read(HEARTBEAT_SETTINGS_ID);
  return stored === null
    ? { settings: { ...DEFAULT_HEARTBEAT_SETTINGS }, etag: null }
    : { settings: settingsOf(stored.body), etag: stored.etag };
}
