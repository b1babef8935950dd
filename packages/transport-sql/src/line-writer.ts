import type { Delivery } from '@nimbus/core/transport-spi';
import type { SqlExecutor } from './sql/database.js';
import { headersEncoder, type StatementTexts } from './statement-texts.js';
import type { Tables } from './tables.js';
import { workKey } from './wakeups.js';

/** The settling session's own row update, folded into the session-row upsert. */
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

export interface LineWriterContext {
  readonly t: Tables;
  readonly nowMs: string;
  /** NOTIFY payloads for these work keys to send inside this transaction (the rest are coalesced; none on SQLite). */
  readonly notifyNow: (workKeys: Iterable<string>) => string[];
  /** Runs the last insert, sending `payloads` to other processes at commit (the dialect's `insertLastChunk`). */
  readonly insertLastChunk: (
    tx: SqlExecutor,
    sql: string,
    params: readonly unknown[],
    payloads: readonly string[],
  ) => Promise<void>;
  readonly texts: StatementTexts;
}

const INSERT_CHUNK = 400;
const INSERT_COLUMNS = 7;

/** `count` copies of `row`, comma separated, for a multi-row VALUES list. */
function valuesList(row: string): (count: number) => string {
  return (count) => Array.from({ length: count }, () => row).join(', ');
}

/**
 * Appends deliveries to their session lines inside `tx`. One upsert takes every touched session row in key
 * order (no deadlocks between concurrent writers) and hands out per-session sequences from `last_seq`; the
 * settling session's row is part of it and only changes while its lease holds. Rows are locked before the
 * messages are inserted, so sequences follow commit order. Returns the work keys (`workKey`) of the sessions that
 * received something.
 */
export async function appendToLines(
  tx: SqlExecutor,
  context: LineWriterContext,
  deliveries: readonly Delivery[],
  own?: OwnSessionUpdate,
): Promise<Set<string>> {
  const { t, nowMs, notifyNow, insertLastChunk, texts } = context;
  const groups = groupBySession(deliveries, own ?? null);
  if (groups.length === 0) return new Set();
  const ownKey = own ? sessionKey(own.input, own.sessionId) : null;

  const values: unknown[] = [];
  for (const group of groups) {
    const added = group.deliveries.length;
    values.push(group.input, group.sessionId, added, added + (group.key === ownKey ? own!.countDelta : 0));
  }
  const ownParams: unknown[] = own ? [own.input, own.sessionId] : ['', ''];
  const stateParams: unknown[] = [own?.state !== undefined, own?.state ?? null];
  const upserted = await tx.all(
    `INSERT INTO ${t.sessions} AS s (input, session_id, last_seq, message_count, locked_until)
     VALUES ${texts.get('sessionValues', groups.length, valuesList(`(?, ?, ?, ?, ${nowMs})`))}
     ON CONFLICT (input, session_id) DO UPDATE SET
       last_seq = s.last_seq + excluded.last_seq,
       message_count = s.message_count + excluded.message_count,
       locked_until = ${readySince('s', nowMs)},
       state = CASE WHEN s.input = ? AND s.session_id = ? AND ? THEN ? ELSE s.state END
     WHERE NOT (s.input = ? AND s.session_id = ?) OR (s.lock_token = ? AND s.locked_until > ${nowMs})
     RETURNING input, session_id, last_seq, lock_token`,
    [...values, ...ownParams, ...stateParams, ...ownParams, own?.leaseToken ?? ''],
  );
  const lastSeq = new Map(
    upserted.map((row) => [sessionKey(String(row.input), String(row.session_id)), Number(row.last_seq)]),
  );
  // Our row is missing when the lease check failed, and carries no token when an idle-session sweep had deleted
  // it (the upsert then inserted a fresh row): both mean the lease is gone.
  const ownRow = upserted.find((row) => sessionKey(String(row.input), String(row.session_id)) === ownKey);
  if (own && ownRow?.lock_token !== own.leaseToken) throw new SessionLockLostSignal();

  const encodeHeaders = headersEncoder();
  const params: unknown[] = [];
  const inputs = new Set<string>();
  for (const group of groups) {
    let seq = lastSeq.get(group.key)! - group.deliveries.length;
    for (const { input, message } of group.deliveries) {
      seq += 1;
      inputs.add(workKey(input, message.sessionId));
      params.push(
        input,
        message.sessionId,
        seq,
        message.messageId,
        message.correlationId,
        encodeHeaders(message.headers),
        message.body,
      );
    }
  }
  const rowCount = params.length / INSERT_COLUMNS;
  for (let start = 0; start < rowCount; start += INSERT_CHUNK) {
    const count = Math.min(INSERT_CHUNK, rowCount - start);
    const chunk = params.slice(start * INSERT_COLUMNS, (start + count) * INSERT_COLUMNS);
    const last = start + INSERT_CHUNK >= rowCount;
    const insert = texts.get(
      'insertMessages',
      count,
      (
        n,
      ) => `INSERT INTO ${t.messages} (input, session_id, seq, message_id, correlation_id, headers, body, enqueued_at, visible_at)
       VALUES ${valuesList(`(?, ?, ?, ?, ?, ?, ?, ${nowMs}, ${nowMs})`)(n)}`,
    );
    if (last) await insertLastChunk(tx, insert, chunk, notifyNow(inputs));
    else await tx.run(insert, chunk);
  }
  return inputs;
}

/**
 * The new `locked_until` of a session row that receives work: a free session with an empty line becomes ready
 * now, so accept-next (ordered by `locked_until`) serves it after the sessions that have waited longer, including
 * those released with work still waiting; a leased or already waiting session keeps its place.
 */
export function readySince(row: string, nowMs: string): string {
  return `CASE WHEN ${row}.message_count = 0 AND ${row}.locked_until < ${nowMs} THEN ${nowMs} ELSE ${row}.locked_until END`;
}

export function sessionKey(input: string, sessionId: string): string {
  return `${input}\u0000${sessionId}`;
}

export interface SessionGroup {
  readonly key: string;
  readonly input: string;
  readonly sessionId: string;
  readonly deliveries: Delivery[];
}

/**
 * Deliveries per (input, session) in key order, the order in which every writer locks session rows (so two
 * writers never deadlock); `own`, the settling session, is included even when nothing is appended to it.
 */
export function groupBySession(
  deliveries: readonly Delivery[],
  own: { readonly input: string; readonly sessionId: string } | null,
): SessionGroup[] {
  const groups = new Map<string, SessionGroup>();
  const add = (input: string, sessionId: string): SessionGroup => {
    const key = sessionKey(input, sessionId);
    let group = groups.get(key);
    if (!group) {
      group = { key, input, sessionId, deliveries: [] };
      groups.set(key, group);
    }
    return group;
  };
  if (own) add(own.input, own.sessionId);
  for (const delivery of deliveries)
    add(delivery.input, delivery.message.sessionId).deliveries.push(delivery);
  return [...groups.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
