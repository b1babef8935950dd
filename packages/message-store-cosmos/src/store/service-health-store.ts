import {
  HeartbeatStatus,
  InvalidStoreArgumentError,
  type ServiceHealth,
  type ServiceHealthStore,
  type ServiceProbeClaim,
} from '@nimbus/message-store';
import type { CosmosStoreContext } from './cosmos-context.js';
import { MetadataKind } from './layout.js';
import { MetadataDocuments, reviveDates, toStored } from './metadata-documents.js';

type Body = Record<string, unknown>;
const DATES = ['lastProbeSentUtc', 'lastSeenUtc'];

function requireServiceId(serviceId: string | null | undefined): asserts serviceId is string {
  if (typeof serviceId !== 'string' || serviceId.trim() === '') {
    throw new InvalidStoreArgumentError('serviceId', 'must be a non-blank string');
  }
}

function toHealth(body: Body): ServiceHealth {
  const { id: _id, kind: _kind, ...fields } = reviveDates<Body>(body, DATES);
  return fields as unknown as ServiceHealth;
}

/** One `service-health` document per service in the `Metadata` container; claims are etag-conditioned. */
export class CosmosServiceHealthStore implements ServiceHealthStore {
  readonly #docs: MetadataDocuments;

  constructor(private readonly context: CosmosStoreContext) {
    this.#docs = new MetadataDocuments(context, MetadataKind.ServiceHealth);
  }

  async getServiceHealth(): Promise<ServiceHealth[]> {
    return (await this.#docs.list())
      .map(toHealth)
      .sort((a, b) => (a.serviceId < b.serviceId ? -1 : a.serviceId > b.serviceId ? 1 : 0));
  }

  async tryClaimServiceProbe({ serviceId, dueBefore, probeMessageId }: ServiceProbeClaim): Promise<boolean> {
    requireServiceId(serviceId);
    const stored = await this.#docs.read(serviceId);
    const current = stored === null ? null : toHealth(stored.body);
    if (current?.lastProbeSentUtc != null && current.lastProbeSentUtc > dueBefore) return false;
    const claimed: ServiceHealth = {
      serviceId,
      status: current?.status ?? HeartbeatStatus.Unknown,
      version: current?.version ?? null,
      lastSeenUtc: current?.lastSeenUtc ?? null,
      roundTripMs: current?.roundTripMs ?? null,
      lastProbeSentUtc: this.context.now(),
      lastProbeMessageId: probeMessageId,
    };
    return this.#docs.writeIfUnchanged(serviceId, stored?.etag ?? null, toStored(claimed) as Body);
  }

  async setServiceHealth(health: ServiceHealth): Promise<boolean> {
    if (health == null) throw new InvalidStoreArgumentError('health', 'is required');
    requireServiceId(health.serviceId);
    await this.#docs.update(health.serviceId, (body) => {
      const current = body === null ? null : toHealth(body);
      const next: ServiceHealth = {
        serviceId: health.serviceId,
        status: health.status,
        version: health.version ?? null,
        lastSeenUtc: health.lastSeenUtc ? new Date(health.lastSeenUtc) : null,
        roundTripMs: health.roundTripMs ?? null,
        lastProbeMessageId: null,
        lastProbeSentUtc: current?.lastProbeSentUtc ?? null,
      };
      return toStored(next) as Body;
    });
    return true;
  }

  async sweepTimedOutServiceProbes(cutoffUtc: Date): Promise<string[]> {
    const touched: string[] = [];
    const inFlight = (h: ServiceHealth) =>
      h.lastProbeMessageId !== null && h.lastProbeSentUtc !== null && h.lastProbeSentUtc <= cutoffUtc;
    for (const health of await this.getServiceHealth()) {
      if (!inFlight(health)) continue;
      const written = await this.#docs.update(health.serviceId, (body) => {
        const current = body === null ? null : toHealth(body);
        if (current === null || !inFlight(current)) return null;
        return toStored({ ...current, status: HeartbeatStatus.Off, lastProbeMessageId: null }) as Body;
      });
      if (written !== null) touched.push(health.serviceId);
    }
    return touched;
  }
}
