/** One write the suite's audit triggers recorded (harness/write-audit.ts). */
export interface AuditedWrite {
  /** Order of the write within its database's audit log. */
  readonly position: number;
  /** A message put on the Resolver input, a history record, or a status write of the store. */
  readonly kind: 'enqueue' | 'history' | 'status';
  readonly sessionId: string;
  readonly eventId: string;
  /** The message enqueued or recorded; for a status write, the message that wrote the row. */
  readonly messageId: string;
  /**
   * Enqueues only: the message's sequence in its Resolver-input session. The transport numbers a session afresh
   * once it has drained, so the order the Resolver must keep is the enqueue's `position` (a session's publishes
   * take the session row's lock in turn).
   */
  readonly seq: number | null;
  readonly messageType: string | null;
  /** Status writes only. */
  readonly status: string | null;
  readonly endpointId: string | null;
}

export interface WriteOrderResult {
  /** A message whose history the Resolver wrote after that of a later message of the same session. */
  readonly overtaken: string[];
  /** A Completed or Skipped row written back to another status. */
  readonly reopened: string[];
  readonly historyWrites: number;
  /** History records of no message the audit saw enqueued (none expected: the join key is sound). */
  readonly historyUnmatched: number;
  readonly statusWrites: number;
}

const SETTLED = new Set(['Completed', 'Skipped']);
const identity = (eventId: string) => eventId;

/**
 * The Resolver's write order over time, which the final store cannot show: (1) it records a session's messages in
 * the order they were put on its input, so no message's history is written after that of a later message of its
 * session (a message written again keeps its first record, and a copy re-enqueued later keeps its first place);
 * (2) no status write turns a Completed or Skipped row into anything else, not even for a moment.
 * `label` names an event for the report (orderId/n).
 */
export function checkWriteOrder(
  writes: readonly AuditedWrite[],
  label: (eventId: string) => string = identity,
): WriteOrderResult {
  const key = (w: AuditedWrite) => `${w.eventId}\u0000${w.messageId}`;
  const enqueued = new Map<string, AuditedWrite>();
  const byPosition = [...writes].sort((a, b) => a.position - b.position);
  for (const w of byPosition) if (w.kind === 'enqueue' && !enqueued.has(key(w))) enqueued.set(key(w), w);

  const overtaken: string[] = [];
  const latest = new Map<string, AuditedWrite>();
  const recorded = new Set<string>();
  let historyWrites = 0;
  let historyUnmatched = 0;
  for (const w of byPosition) {
    if (w.kind !== 'history' || recorded.has(key(w))) continue;
    recorded.add(key(w));
    historyWrites += 1;
    const put = enqueued.get(key(w));
    if (!put) {
      historyUnmatched += 1;
      continue;
    }
    const before = latest.get(put.sessionId);
    if (before && before.position > put.position) {
      overtaken.push(
        `session ${put.sessionId}: ${put.messageType} of ${label(put.eventId)} was recorded after ${before.messageType} of ${label(before.eventId)}, put on the Resolver input after it`,
      );
    } else latest.set(put.sessionId, put);
  }

  const reopened: string[] = [];
  const rowWrite = new Map<string, AuditedWrite>();
  let statusWrites = 0;
  for (const w of byPosition) {
    if (w.kind !== 'status' || w.status === null) continue;
    statusWrites += 1;
    const row = `${w.endpointId}\u0000${w.eventId}\u0000${w.sessionId}`;
    const was = rowWrite.get(row);
    if (was?.status && SETTLED.has(was.status) && !SETTLED.has(w.status))
      reopened.push(
        `${label(w.eventId)} at ${w.endpointId}: ${was.status} written back to ${w.status} (by a ${w.messageType} ${w.messageId}, after the ${was.messageType} ${was.messageId})`,
      );
    rowWrite.set(row, w);
  }
  return { overtaken, reopened, historyWrites, historyUnmatched, statusWrites };
}
