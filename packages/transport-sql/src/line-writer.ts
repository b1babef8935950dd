import type { Delivery } from '@nimbus/core';
import type { SqlExecutor } from './sql/database.js';
import type { Tables } from './tables.js';

/** The settling session's own row update, merged into the sorted session-row pass. */
export interface OwnSessionUpdate {
  readonly input: string;
  readonly sessionId: string;
  readonly leaseToken: string;
  /** -1 when the settled message leaves the line. */
  readonly countDelta: number;
  /** JSON text, `null` to clear, `undefined` to keep. */
  readonly state?: string | null;
}

export class SessionLockLostSignal extends Error {}

const INSERT_CHUNK = 400;

/**
 * Appends deliveries to their session lines inside `tx`. Session rows are locked in key order (avoiding
 * deadlocks between concurrent settles) and before the messages are inserted, so the per-session sequence
 * taken from `last_seq` follows commit order. Returns the inputs that received something.
 */
export async function appendToLines(
  tx: SqlExecutor,
  t: Tables,
  nowMs: string,
  deliveries: readonly Delivery[],
  own?: OwnSessionUpdate,
): Promise<Set<string>> {
  const groups = new Map<string, { input: string; sessionId: string; deliveries: Delivery[] }>();
  for (const delivery of deliveries) {
    const key = sessionKey(delivery.input, delivery.message.sessionId);
    let group = groups.get(key);
    if (!group) {
      group = { input: delivery.input, sessionId: delivery.message.sessionId, deliveries: [] };
      groups.set(key, group);
    }
    group.deliveries.push(delivery);
  }
  const ownKey = own ? sessionKey(own.input, own.sessionId) : null;
  const keys = [...groups.keys()];
  if (ownKey !== null && !groups.has(ownKey)) keys.push(ownKey);
  keys.sort();

  const rows: unknown[][] = [];
  for (const key of keys) {
    const group = groups.get(key);
    const added = group?.deliveries.length ?? 0;
    let lastSeq: number;
    if (key === ownKey && own) {
      const setState = own.state === undefined ? '' : ', state = ?';
      const params: unknown[] = [added + own.countDelta, added];
      if (own.state !== undefined) params.push(own.state);
      params.push(own.input, own.sessionId, own.leaseToken);
      const updated = await tx.all(
        `UPDATE ${t.sessions} SET message_count = message_count + ?, last_seq = last_seq + ?${setState}
         WHERE input = ? AND session_id = ? AND lock_token = ? AND locked_until > ${nowMs} RETURNING last_seq`,
        params,
      );
      if (updated.length === 0) throw new SessionLockLostSignal();
      lastSeq = Number(updated[0]!.last_seq);
    } else {
      const upserted = await tx.all(
        `INSERT INTO ${t.sessions} AS s (input, session_id, last_seq, message_count) VALUES (?, ?, ?, ?)
         ON CONFLICT (input, session_id) DO UPDATE SET last_seq = s.last_seq + excluded.last_seq,
           message_count = s.message_count + excluded.message_count
         RETURNING last_seq`,
        [group!.input, group!.sessionId, added, added],
      );
      lastSeq = Number(upserted[0]!.last_seq);
    }
    if (!group) continue;
    let seq = lastSeq - added;
    for (const { input, message } of group.deliveries) {
      seq += 1;
      rows.push([
        input,
        message.sessionId,
        seq,
        message.messageId,
        message.correlationId,
        JSON.stringify(message.headers),
        message.body,
      ]);
    }
  }
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    const chunk = rows.slice(start, start + INSERT_CHUNK);
    const values = chunk.map(() => `(?, ?, ?, ?, ?, ?, ?, ${nowMs}, ${nowMs})`).join(', ');
    await tx.run(
      `INSERT INTO ${t.messages} (input, session_id, seq, message_id, correlation_id, headers, body, enqueued_at, visible_at)
       VALUES ${values}`,
      chunk.flat(),
    );
  }
  return new Set(rows.map((row) => row[0] as string));
}

export function sessionKey(input: string, sessionId: string): string {
  return `${input}\u0000${sessionId}`;
}
