import { type NimBusMessageStore, ResolutionStatus, type UnresolvedEvent } from '@nimbus/message-store';
import { badRequest } from '../http/http-error.js';
import type { BulkJobItem } from './bulk-job-store.js';
import { EventLoopPacer } from './yield-to-event-loop.js';

/** The statuses a bulk resubmit or skip acts on (the ones an operator can resubmit or skip). */
export const BULK_STATUSES = [
  ResolutionStatus.Failed,
  ResolutionStatus.DeadLettered,
  ResolutionStatus.Unsupported,
] as const;
export type BulkStatus = (typeof BULK_STATUSES)[number];

/** What a filter job matches on each of its endpoints (every criterion optional; statuses default to all three). */
export interface BulkFilter {
  readonly statuses?: readonly BulkStatus[];
  readonly eventTypeIds?: readonly string[];
  readonly failureSignature?: string;
  /** Exact session id. */
  readonly sessionId?: string;
  readonly updatedAtFrom?: string;
  readonly updatedAtTo?: string;
  /** Literal substring of the payload. */
  readonly payload?: string;
}

/** One job acts on at most this many events; a wider filter ends the job, asking to narrow it. */
export const MAX_BULK_EVENTS = 100_000;
const PAGE = 200;

type Target = Omit<BulkJobItem, 'position'>;

/**
 * Every event the filter matches now, on each endpoint, oldest first (so a session's events keep their
 * order): the job's snapshot, stored with it, so a restart resumes exactly the events that are left.
 */
export async function collectBulkTargets(
  store: NimBusMessageStore,
  endpointIds: readonly string[],
  filter: BulkFilter,
  goOn: (found: number) => Promise<boolean> = async () => true,
): Promise<Target[] | null> {
  // Reads only: the loop's lateness is someone else's work, so the snapshot waits for it briefly.
  const pacer = new EventLoopPacer({ maxWaitMs: 100 });
  try {
    return await collect(store, endpointIds, filter, pacer, goOn);
  } finally {
    pacer.close();
  }
}

async function collect(
  store: NimBusMessageStore,
  endpointIds: readonly string[],
  filter: BulkFilter,
  pacer: EventLoopPacer,
  goOn: (found: number) => Promise<boolean>,
): Promise<Target[] | null> {
  const rows: UnresolvedEvent[] = [];
  for (const endpointId of endpointIds) {
    const seen = new Set<string>();
    // Newest update first. Each page starts again at the oldest update seen (inclusive, the repeats skipped),
    // so no page scans past the rows already read (offset paging would, ever longer); only a page whose rows
    // all share one update time goes on by offset.
    let updatedAtTo = filter.updatedAtTo ? new Date(filter.updatedAtTo) : null;
    let continuationToken: string | null = null;
    for (;;) {
      const page = await store.getEventsByFilter({
        filter: {
          endpointId,
          resolutionStatus: filter.statuses?.length ? [...filter.statuses] : [...BULK_STATUSES],
          eventTypeId: filter.eventTypeIds?.length ? [...filter.eventTypeIds] : null,
          failureSignature: filter.failureSignature ?? null,
          sessionId: filter.sessionId ?? null,
          updatedAtFrom: filter.updatedAtFrom ? new Date(filter.updatedAtFrom) : null,
          updatedAtTo,
          payload: filter.payload ?? null,
        },
        continuationToken,
        maxItems: PAGE,
      });
      // The store matches endpoint and session ids by prefix; a job acts on exactly the ones named.
      for (const row of page.events) {
        if (row.endpointId !== endpointId || seen.has(row.eventId)) continue;
        if (filter.sessionId !== undefined && row.sessionId !== filter.sessionId) continue;
        seen.add(row.eventId);
        rows.push(row);
      }
      if (rows.length > MAX_BULK_EVENTS)
        throw badRequest(
          `the filter matches more than ${MAX_BULK_EVENTS} events; narrow it (endpoint, event type, time range, failure group).`,
        );
      await pacer.pace();
      if (!(await goOn(rows.length))) return null;
      const oldest = page.events.at(-1)?.updatedAt;
      if (!page.continuationToken || !oldest) break;
      if (updatedAtTo !== null && oldest.getTime() === updatedAtTo.getTime()) {
        continuationToken = page.continuationToken;
      } else {
        updatedAtTo = oldest;
        continuationToken = null;
      }
    }
  }
  rows.sort(
    (a, b) => a.enqueuedTimeUtc.getTime() - b.enqueuedTimeUtc.getTime() || compare(a.eventId, b.eventId),
  );
  return rows.map((row) => ({
    endpointId: row.endpointId,
    eventId: row.eventId,
    sessionId: row.sessionId,
    outcome: 'pending',
    message: null,
    messageId: null,
  }));
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
