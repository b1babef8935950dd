import { compositeEventId } from '../composite-id.js';
import type { UnresolvedEvent } from '../entities/unresolved-event.js';
import type { MemoryState, TrackingRow } from './state.js';

/** Read order of resolver rows: newest update first, later writes first on a tie. */
export const newestFirst = (a: TrackingRow, b: TrackingRow) =>
  b.event.updatedAt.getTime() - a.event.updatedAt.getTime() || b.seq - a.seq;

export const compositeIdOf = (e: UnresolvedEvent) => compositeEventId(e.eventId, e.sessionId);

/** Every row of the store that is neither removed nor archived. */
export function liveRows(state: MemoryState): TrackingRow[] {
  return [...state.rows.values()].filter((r) => r.visibility === 'live');
}

/** The live rows of one endpoint, unordered. */
export function liveRowsOn(state: MemoryState, endpointId: string): TrackingRow[] {
  return liveRows(state).filter((r) => r.event.endpointId === endpointId);
}
