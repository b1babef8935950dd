import { type MessageTrackingStore, ResolutionStatus, type UnresolvedEvent } from '@nimbus/message-store';
import { HttpError } from '../http/http-error.js';

/** The error code of the 409 that asks the operator to confirm an out-of-order resubmit. */
export const OUT_OF_ORDER_NOT_ACKNOWLEDGED = 'OutOfOrderNotAcknowledged';

/**
 * Statuses whose event left its session's order: a dead-lettered or unsupported event does not block its
 * session, later events went on, so a resubmit runs it after them.
 */
const OUT_OF_ORDER_STATUSES = new Set<string>([ResolutionStatus.DeadLettered, ResolutionStatus.Unsupported]);

/** How many later events of the session the refusal counts at most (it says "or more" past that). */
const COUNT_LIMIT = 100;

export function resubmitRunsOutOfOrder(row: UnresolvedEvent): boolean {
  return OUT_OF_ORDER_STATUSES.has(row.resolutionStatus);
}

/**
 * Refuses (409 `OutOfOrderNotAcknowledged`) a resubmit that would run `row` after later events of its session
 * unless the operator acknowledged it. The engine holding the session refuses an unacknowledged one too; this
 * answers at once and explains, counting the later events the store knows of.
 */
export async function requireOutOfOrderAcknowledgement(
  store: Pick<MessageTrackingStore, 'getEventsByFilter'>,
  row: UnresolvedEvent,
  acknowledged: boolean,
): Promise<void> {
  if (acknowledged || !resubmitRunsOutOfOrder(row)) return;
  const later = await laterEventsOfSession(store, row);
  const counted = later >= COUNT_LIMIT ? `${COUNT_LIMIT} or more later events` : plural(later);
  const state = row.resolutionStatus === ResolutionStatus.Unsupported ? 'unsupported' : 'dead-lettered';
  throw new HttpError(
    409,
    OUT_OF_ORDER_NOT_ACKNOWLEDGED,
    `Event '${row.eventId}' was ${state} and its session '${row.sessionId}' went on without it (${counted} of the session recorded since): resubmitting runs it after later events of the session. ` +
      'Confirm out-of-order with acknowledgeOutOfOrder: true to run it anyway, or skip it. Nothing was sent.',
  );
}

async function laterEventsOfSession(
  store: Pick<MessageTrackingStore, 'getEventsByFilter'>,
  row: UnresolvedEvent,
): Promise<number> {
  // The session filter matches by prefix: keep exactly this session's rows at this endpoint.
  const { events } = await store.getEventsByFilter({
    filter: { endpointId: row.endpointId, sessionId: row.sessionId, enqueuedAtFrom: row.enqueuedTimeUtc },
    continuationToken: null,
    maxItems: COUNT_LIMIT + 1,
  });
  return events.filter(
    (e) =>
      e.sessionId === row.sessionId &&
      e.endpointId.toLowerCase() === row.endpointId.toLowerCase() &&
      e.eventId !== row.eventId &&
      e.enqueuedTimeUtc.getTime() > row.enqueuedTimeUtc.getTime(),
  ).length;
}

function plural(count: number): string {
  return count === 1 ? '1 later event' : `${count} later events`;
}
