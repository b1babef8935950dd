import {
  type EndpointEventRef,
  type EventIdOnEndpoint,
  type EventIdsOnEndpoint,
  HANDOFF_SUB_STATUS,
  type HandoffJobRef,
  type NextHandoffRequest,
  ResolutionStatus,
  type StatusLookup,
  type TrackingEventLookups,
  type UnresolvedEvent,
} from '@nimbus/message-store';
import { EndpointRows } from './endpoint-rows.js';
import { encodeId, trackingDocumentId } from './layout.js';
import { fromTrackingDocument, type TrackingDocument } from './tracking-document.js';
import type { Where } from './where.js';

/** Above this many `_` in a composite id, one query is cheaper than a point read per reading. */
const MAX_POINT_READS = 8;

/** Every session id a composite id `{eventId}_{sessionId}` can end with (the text after some `_`). */
function sessionSplits(id: string): string[] {
  const sessions: string[] = [];
  for (let at = id.indexOf('_'); at !== -1; at = id.indexOf('_', at + 1)) sessions.push(id.slice(at + 1));
  return sessions;
}

const pendingHandoff = (w: Where) =>
  w.equals('c.resolutionStatus', ResolutionStatus.Pending).equals('c.pendingSubStatus', HANDOFF_SUB_STATUS);

/** Single-row and small-set reads; a status lookup is one point read in the session's partition. */
export class CosmosEventLookups extends EndpointRows implements TrackingEventLookups {
  async getEventInStatus({ key, status }: StatusLookup): Promise<UnresolvedEvent | null> {
    const { endpointId, eventId, sessionId } = key;
    const container = await this.context.endpointContainer(endpointId);
    if (container === null || typeof sessionId !== 'string' || !eventId) return null;
    const { resource } = await container
      .item(trackingDocumentId(eventId, sessionId), sessionId)
      .read<TrackingDocument>();
    if (resource === undefined || resource.visibility !== 'live' || resource.resolutionStatus !== status)
      return null;
    return fromTrackingDocument(resource);
  }

  async getEvent({ endpointId, eventId }: EndpointEventRef): Promise<UnresolvedEvent | null> {
    const [newest] = await this.live(endpointId, (w) => w.equals('c.eventId', eventId), 1);
    return newest ?? null;
  }

  async getEventById({ endpointId, id }: EventIdOnEndpoint): Promise<UnresolvedEvent | null> {
    const container = await this.context.endpointContainer(endpointId);
    if (container === null || !id) return null;
    const splits = sessionSplits(id);
    if (splits.length > MAX_POINT_READS) {
      const [row] = await this.live(endpointId, (w) => w.equals('c.id', encodeId(id)), 1);
      return row ?? null;
    }
    // The id is `{eventId}_{sessionId}`: every `_` could be the separator, and the session is the
    // partition, so each reading is one point read; the newest live document among them wins.
    const reads = await Promise.all(
      splits.map(async (sessionId): Promise<TrackingDocument | null> => {
        const { resource } = await container.item(encodeId(id), sessionId).read<TrackingDocument>();
        return resource?.visibility === 'live' && resource.sessionId === sessionId ? resource : null;
      }),
    );
    const newest = reads
      .filter((doc): doc is TrackingDocument => doc !== null)
      .sort((a, b) => b.seq - a.seq)[0];
    return newest === undefined ? null : fromTrackingDocument(newest);
  }

  async getEventsByIds({ endpointId, ids }: EventIdsOnEndpoint): Promise<UnresolvedEvent[]> {
    if (ids.length === 0) return [];
    return this.live(endpointId, (w) => {
      const composite = w.value(ids.map(encodeId));
      const bare = w.value([...ids]);
      return w.raw(`(ARRAY_CONTAINS(${composite}, c.id) OR ARRAY_CONTAINS(${bare}, c.eventId))`);
    });
  }

  async getCompletedEventsOnEndpoint(endpointId: string): Promise<UnresolvedEvent[]> {
    return this.live(endpointId, (w) => w.equals('c.resolutionStatus', ResolutionStatus.Completed));
  }

  async getPendingHandoffByExternalJobId({
    endpointId,
    externalJobId,
  }: HandoffJobRef): Promise<UnresolvedEvent | null> {
    if (externalJobId == null || externalJobId === '') return null;
    const [row] = await this.live(
      endpointId,
      (w) => pendingHandoff(w).equals('c.externalJobId', externalJobId),
      1,
    );
    return row ?? null;
  }

  async getNextPendingHandoffEvent({
    endpointId,
    eventTypeIds,
  }: NextHandoffRequest): Promise<UnresolvedEvent | null> {
    const types = eventTypeIds?.filter((t) => t !== '') ?? [];
    // Handoff rows are few; ordering by (enqueuedTimeUtc, write order) is done here rather than with a
    // two-field ORDER BY, which would need a composite index on every endpoint container.
    const docs = await this.liveDocuments(endpointId, (w) => pendingHandoff(w).oneOf('c.eventTypeId', types));
    const oldest = docs.sort((a, b) =>
      a.enqueuedTimeUtc < b.enqueuedTimeUtc ? -1 : a.enqueuedTimeUtc > b.enqueuedTimeUtc ? 1 : a.seq - b.seq,
    )[0];
    return oldest === undefined ? null : fromTrackingDocument(oldest);
  }
}
