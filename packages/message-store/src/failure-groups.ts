import type { FailureGroup } from './entities/failure-group.js';
import type { UnresolvedEvent } from './entities/unresolved-event.js';
import { ResolutionStatus } from './enums.js';
import { failureSignature } from './failure-signature.js';

/** The statuses whose rows are grouped by failure signature (an operator resubmits or skips them). */
export const FAILURE_GROUP_STATUSES: readonly ResolutionStatus[] = [
  ResolutionStatus.Failed,
  ResolutionStatus.DeadLettered,
];

/** What the signature of a row is computed from. */
export type FailureFields = Pick<
  UnresolvedEvent,
  'resolutionStatus' | 'messageContent' | 'deadLetterReason' | 'deadLetterErrorDescription'
> & { readonly retry?: UnresolvedEvent['retry'] | undefined };

/**
 * The failure signature key a provider stamps on a row at its status write (null for every status that is
 * not grouped). A dead-lettered row without error content is grouped by its dead-letter reason and
 * description. A Failed row that is retrying (`retry` set) is in no group: it awaits its retry, not an
 * operator. Every provider stamps through this one function, so groups agree across providers.
 */
export function rowFailureSignature(row: FailureFields): string | null {
  if (!FAILURE_GROUP_STATUSES.includes(row.resolutionStatus)) return null;
  if (row.retry) return null;
  const error = row.messageContent.errorContent;
  if (error) return failureSignature(error.errorType, error.errorText).key;
  return failureSignature(row.deadLetterReason ?? 'DeadLettered', row.deadLetterErrorDescription).key;
}

/** The error type and normalised message a signature key was made of (`"Type: message"`). */
export function splitFailureSignature(signature: string): { errorType: string; normalisedMessage: string } {
  const at = signature.indexOf(': ');
  return at < 0
    ? { errorType: signature, normalisedMessage: '' }
    : { errorType: signature.slice(0, at), normalisedMessage: signature.slice(at + 2) };
}

/** What the in-process aggregation needs of one grouped row. */
export interface FailureGroupRow {
  readonly endpointId: string;
  readonly sessionId: string;
  readonly signature: string;
  readonly status: ResolutionStatus;
  readonly updatedAt: Date;
  /** Compared to pick the newest row of a group (its error text is the group's example). */
  readonly order: number;
  readonly errorText: string | null;
  readonly eventTypeId: string | null;
}

/**
 * Folds rows into groups the way the SQL providers' GROUP BY does (providers without one — memory, Cosmos —
 * use it): per (endpoint, signature), or per signature across endpoints; newest group first.
 */
export function aggregateFailureGroups(
  rows: Iterable<FailureGroupRow>,
  acrossEndpoints: boolean,
): FailureGroup[] {
  interface Acc {
    row: FailureGroupRow;
    endpoints: Set<string>;
    sessions: Set<string>;
    events: number;
    failed: number;
    first: number;
    last: number;
    eventTypes: Set<string>;
  }
  const groups = new Map<string, Acc>();
  for (const row of rows) {
    const key = acrossEndpoints ? row.signature : `${row.endpointId}\u0000${row.signature}`;
    let acc = groups.get(key);
    if (acc === undefined) {
      acc = {
        row,
        endpoints: new Set(),
        sessions: new Set(),
        events: 0,
        failed: 0,
        first: row.updatedAt.getTime(),
        last: row.updatedAt.getTime(),
        eventTypes: new Set(),
      };
      groups.set(key, acc);
    }
    if (row.order > acc.row.order) acc.row = row;
    acc.endpoints.add(row.endpointId);
    acc.sessions.add(row.sessionId);
    if (row.eventTypeId !== null) acc.eventTypes.add(row.eventTypeId);
    acc.events += 1;
    if (row.status === ResolutionStatus.Failed) acc.failed += 1;
    acc.first = Math.min(acc.first, row.updatedAt.getTime());
    acc.last = Math.max(acc.last, row.updatedAt.getTime());
  }
  return sortFailureGroups(
    [...groups.values()].map((acc) => ({
      signature: acc.row.signature,
      ...splitFailureSignature(acc.row.signature),
      endpointIds: [...acc.endpoints].sort(),
      eventCount: acc.events,
      sessionCount: acc.sessions.size,
      failedCount: acc.failed,
      deadLetteredCount: acc.events - acc.failed,
      eventTypeIds: [...acc.eventTypes].sort(),
      firstSeen: new Date(acc.first),
      lastSeen: new Date(acc.last),
      exampleErrorText: acc.row.errorText,
    })),
  );
}

/** Newest `lastSeen` first; ties by signature, then endpoints, so every provider lists groups alike. */
export function sortFailureGroups(groups: FailureGroup[]): FailureGroup[] {
  return groups.sort(
    (a, b) =>
      b.lastSeen.getTime() - a.lastSeen.getTime() ||
      compareText(a.signature, b.signature) ||
      compareText(a.endpointIds.join(','), b.endpointIds.join(',')),
  );
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
