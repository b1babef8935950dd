import { anotherSessionWaits, receiveReturning, takeHeadParams } from '../../line-head.js';
import type { Row } from '../../sql/database.js';
import type { DialectContext, DialectReceive, HeadRequest, HeadTake, LeaseFence } from '../dialect.js';

export const postgresReceive: DialectReceive = { takeHead: takeOrInspect, takeMany };

const STORED_BYTES = '(octet_length(body) + octet_length(headers))';

/**
 * One round trip takes up to `max` messages or, when there are none, tells whether the lease still holds, when
 * the input's next scheduled copy is due and whether another session waits.
 */
async function takeOrInspect(context: DialectContext, lease: LeaseFence, max: number): Promise<HeadTake> {
  const { t, now } = context;
  const rows = await context.db.all(
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
         EXISTS (SELECT 1 FROM ${t.sessions} ${anotherSessionWaits(context)} AND NOT EXISTS (SELECT 1 FROM upd))
           AS others_waiting,
         ${now} AS db_now
     )
     SELECT info.leased, info.due, info.others_waiting, info.db_now, upd.* FROM info LEFT JOIN upd ON true`,
    [...takeHeadParams(lease, max), context.options.maxBatchBytes, ...lease.params, lease.input, lease.input],
    { prepared: true },
  );
  const taken = rows.filter((row) => row.seq !== null && row.seq !== undefined);
  if (taken.length > 0) return { rows: taken, inspection: null };
  const info = rows[0];
  const untilDue =
    info?.due === null || info?.due === undefined ? null : Number(info.due) - Number(info.db_now);
  return {
    rows: [],
    inspection: { leased: Boolean(info?.leased), untilDue, othersWaiting: info?.others_waiting === true },
  };
}

/** The heads of several leased lines in one statement; each lease (token, unexpired) is checked in it. */
async function takeMany(context: DialectContext, leases: readonly HeadRequest[]): Promise<Row[]> {
  const { t, now } = context;
  return context.db.all(
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
      context.options.maxBatchBytes,
    ],
    { prepared: true },
  );
}
