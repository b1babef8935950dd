import { type NimBusMessageStore, ResolutionStatus, type UnresolvedEvent } from '@nimbus/message-store';
import type { SubscribableNotifier } from '@nimbus/webapp';

/** The statuses that block a session: nothing later on it is handled until the operator acts. */
const BLOCKING = [ResolutionStatus.Failed, ResolutionStatus.DeadLettered, ResolutionStatus.Unsupported];
/** Blocking rows read per change of one endpoint (newest first); more at once than this print this many. */
const SCAN = 50;
/** Lines remembered so a row is printed once; the oldest are forgotten past this. */
const REMEMBERED = 10_000;

/** `blocked: endpoint Erp, session C-2001, event 0193… Failed: Error: VAT number 'NL-X' is not valid`. */
export function blockedSessionLine(row: UnresolvedEvent): string {
  const error = row.messageContent.errorContent;
  const why = error
    ? `${error.errorType ? `${error.errorType}: ` : ''}${error.errorText}`
    : (row.deadLetterErrorDescription ?? row.deadLetterReason ?? 'no error text recorded');
  return `blocked: endpoint ${row.endpointId}, session ${row.sessionId}, event ${row.eventId} ${row.resolutionStatus}: ${why}`;
}

/**
 * Prints a line each time a session blocks (an event Failed, DeadLettered or Unsupported after `since`, not
 * while a Failed event is retrying: it prints when its retries are exhausted), so
 * the `nimbus dev` terminal shows failures as they happen, not only the WebApp. Listens to the notifier the
 * Resolver writes through; a row that blocks again later (a resubmit failed again) prints again. Returns the
 * function that stops listening.
 */
export function printBlockedSessions(options: {
  readonly store: NimBusMessageStore;
  readonly notifier: SubscribableNotifier;
  readonly print: (line: string) => void;
  readonly since: Date;
  readonly onError: (error: unknown) => void;
}): () => void {
  const { store, print } = options;
  const printed = new Set<string>();
  let checks: Promise<void> = Promise.resolve();
  const check = async (endpointId: string) => {
    const { events } = await store.getEventsByFilter({
      filter: { endpointId, resolutionStatus: BLOCKING, updatedAtFrom: options.since },
      continuationToken: null,
      maxItems: SCAN,
    });
    for (const row of [...events].reverse()) {
      // A failure the retry policy retries is not a blocked session an operator must act on.
      if (row.retry) continue;
      const key = [
        row.endpointId,
        row.sessionId,
        row.eventId,
        row.resolutionStatus,
        row.updatedAt.getTime(),
      ].join('|');
      if (printed.has(key)) continue;
      printed.add(key);
      if (printed.size > REMEMBERED) printed.delete(printed.values().next().value as string);
      print(blockedSessionLine(row));
    }
  };
  return options.notifier.subscribe((change) => {
    if (change.kind !== 'endpoint') return;
    // One check at a time, in order; the notifier is not kept waiting for the store read.
    checks = checks.then(() => check(change.endpointId)).catch(options.onError);
  });
}
