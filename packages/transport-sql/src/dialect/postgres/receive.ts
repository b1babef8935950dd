import type { HeldLease } from '../../held-lease.js';
import { anotherSessionWaits, receiveReturning, takeHeadParams } from '../../line-head.js';
import type { Row } from '../../sql/database.js';
import type { SqlCore } from '../../sql-core.js';
import { leaseKey } from '../../take-group.js';
import type { DialectReceive, TakenHead } from '../dialect.js';

export const postgresReceive: DialectReceive = { takeHead: takeOrInspect, takeMany };

const STORED_BYTES = '(octet_length(body) + octet_length(headers))';

/**
 * One round trip takes up to `max` messages or, when there are none, tells whether the lease still
 * holds and when the input's next scheduled copy is due (promoting due ones). `nextDue`: 0 = look again now,
 * null = nothing scheduled, otherwise ms until the next one.
 */
async function takeOrInspect(lease: HeldLease, max: number): Promise<TakenHead> {
  const { core } = lease;
  const { t, now } = core;
  const rows = await core.db.all(
    // ARRAY(...) makes the line's head one InitPlan read through the (input, session_id, seq) index; a plain
    // `seq IN (subquery)` can be planned as a re-run per row when statistics predate a long backlog.
    `WITH upd AS (
       UPDATE ${t.messages} SET held_by = ?, delivery_count = delivery_count + 1
       WHERE input = ? AND session_id = ? AND id = ANY(ARRAY(
         SELECT id FROM ${t.messages} WHERE input = ? AND session_id = ? AND (held_by IS NULL OR held_by <> ?)
         ORDER BY seq LIMIT ?))
       AND ${lease.validSql}
       ${receiveReturning(STORED_BYTES)}
     ), info AS (
       SELECT ${lease.validSql} AS leased,
         (SELECT MIN(due_at) FROM ${t.scheduled} WHERE input = ? AND NOT EXISTS (SELECT 1 FROM upd)) AS due,
         EXISTS (SELECT 1 FROM ${t.sessions} ${anotherSessionWaits(core)} AND NOT EXISTS (SELECT 1 FROM upd))
           AS others_waiting,
         ${now} AS db_now
     )
     SELECT info.leased, info.due, info.others_waiting, info.db_now, upd.* FROM info LEFT JOIN upd ON true`,
    [...takeHeadParams(lease, max), core.options.maxBatchBytes, ...lease.params, lease.input, lease.input],
    { prepared: true },
  );
  const taken = rows.filter((row) => row.seq !== null && row.seq !== undefined);
  if (taken.length > 0) return { rows: taken, nextDue: null, othersWaiting: false };
  const info = rows[0];
  if (!info?.leased) throw lease.lockLost();
  const othersWaiting = info.others_waiting === true;
  if (info.due === null || info.due === undefined) return { rows: [], nextDue: null, othersWaiting };
  const untilDue = Number(info.due) - Number(info.db_now);
  return {
    rows: [],
    nextDue: untilDue > 0 ? untilDue : await core.promoteDue(lease.input),
    othersWaiting,
  };
}

/** The heads of several leased lines in one statement; each lease (token, unexpired) is checked in it. */
async function takeMany(
  core: SqlCore,
  leases: readonly { readonly lease: HeldLease; readonly max: number }[],
): Promise<Map<string, Row[]>> {
  const { t, now } = core;
  const rows = await core.db.all(
    `WITH req AS (
       SELECT * FROM unnest(?::text[], ?::text[], ?::text[], ?::int[]) AS r(input, session_id, token, max)
     ), pick AS (
       SELECT x.id, r.token FROM req r
       CROSS JOIN LATERAL (
         SELECT m.id FROM ${t.messages} m WHERE m.input = r.input AND m.session_id = r.session_id
           AND (m.held_by IS NULL OR m.held_by <> r.token)
         ORDER BY m.seq LIMIT r.max) x
       WHERE EXISTS (SELECT 1 FROM ${t.sessions} s WHERE s.input = r.input AND s.session_id = r.session_id
         AND s.lock_token = r.token AND s.locked_until > ${now})
     )
     UPDATE ${t.messages} AS taken SET held_by = pick.token, delivery_count = taken.delivery_count + 1
     FROM pick WHERE taken.id = pick.id
     ${receiveReturning(STORED_BYTES)}`,
    [
      leases.map(({ lease }) => lease.input),
      leases.map(({ lease }) => lease.sessionId),
      leases.map(({ lease }) => lease.token),
      leases.map(({ max }) => max),
      core.options.maxBatchBytes,
    ],
    { prepared: true },
  );
  const taken = new Map<string, Row[]>();
  for (const row of rows) {
    const key = leaseKey(String(row.input), String(row.session_id));
    const list = taken.get(key);
    if (list) list.push(row);
    else taken.set(key, [row]);
  }
  return taken;
}
