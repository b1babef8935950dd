import type { Delivery } from '@nimbus/core/transport-spi';
import { groupBySession, readySince } from '../../line-writer.js';
import { headersEncoder } from '../../statement-texts.js';
import type { Tables } from '../../tables.js';
import { workKey } from '../../wakeups.js';
import type { DialectContext, DialectLineAppend } from '../dialect.js';

export const postgresLineAppend: DialectLineAppend = {
  publishPlain: publishInOneStatement,
  async insertLastChunk(tx, insertSql, params, payloads, channel) {
    if (payloads.length === 0) {
      await tx.run(insertSql, params);
      return;
    }
    // Other processes hear about the new work when this transaction commits.
    await tx.all(
      `WITH inserted AS (${insertSql} RETURNING 1) SELECT pg_notify(?, x) FROM unnest(?::text[]) AS x`,
      [...params, channel, payloads],
    );
  },
};

/**
 * A plain publish: session rows and messages in one autocommitted statement, so the session rows are locked only
 * for that statement (a settling consumer waits for it as little as possible).
 */
async function publishInOneStatement(
  context: DialectContext,
  deliveries: readonly Delivery[],
): Promise<Set<string>> {
  const { t, now } = context;
  const { sessions, lines, inputs } = lineArrays(deliveries, null);
  await context.db.all(
    `WITH up AS (${sessionUpsertSql(t, now, 1)}), ins AS (${lineInsertSql(t, now, 5)})
     SELECT (SELECT count(*) FROM ins) AS inserted, (SELECT count(pg_notify($13, x)) FROM unnest($14::text[]) AS x) AS notified`,
    [...sessions, ...lines, t.channel, context.notifyNow(inputs)],
    { prepared: true },
  );
  return inputs;
}

// The PostgreSQL one-statement writers (plain publish, settle) share two data-modifying CTEs: `up` takes the
// touched session rows in key order and hands out sequences, `ins` appends the messages. Both read column arrays
// through `unnest`, so a statement has one fixed shape whatever the number of messages (and stays prepared).

/** Column arrays for `unnest`: one entry per touched session (key order) and one per appended message. */
export interface LineArrays {
  readonly sessions: readonly unknown[][];
  readonly lines: readonly unknown[][];
  /** Work keys (`workKey`) of the sessions that received something. */
  readonly inputs: Set<string>;
}

/** `own`, when given, gets a session entry even without deliveries, with its count lowered by the settled ones. */
export function lineArrays(
  deliveries: readonly Delivery[],
  own: { input: string; sessionId: string } | null,
  settled = 1,
): LineArrays {
  const sessions: unknown[][] = [[], [], [], []];
  const lines: unknown[][] = [[], [], [], [], [], [], [], []];
  const [sInput, sSession, sAdded, sDelta] = sessions as [unknown[], unknown[], unknown[], unknown[]];
  const columns = lines as [
    unknown[],
    unknown[],
    unknown[],
    unknown[],
    unknown[],
    unknown[],
    unknown[],
    unknown[],
  ];
  const encodeHeaders = headersEncoder();
  for (const group of groupBySession(deliveries, own)) {
    const added = group.deliveries.length;
    const isOwn = own !== null && group.input === own.input && group.sessionId === own.sessionId;
    sInput.push(group.input);
    sSession.push(group.sessionId);
    sAdded.push(added);
    sDelta.push(isOwn ? added - settled : added);
    group.deliveries.forEach(({ input, message }, index) => {
      const row = [
        input,
        message.sessionId,
        index + 1,
        added,
        message.messageId,
        message.correlationId,
        encodeHeaders(message.headers),
        message.body,
      ];
      for (const [column, value] of row.entries()) columns[column]!.push(value);
    });
  }
  const work = new Set<string>();
  for (const [index, input] of (columns[0] as string[]).entries())
    work.add(workKey(input, (columns[1] as string[])[index]!));
  return { sessions, lines, inputs: work };
}

export interface SessionUpsertOptions {
  /** Extra condition for inserting at all (e.g. that the settled message was removed). */
  readonly onlyIf?: string;
  /** Extra `SET` assignments on conflict. */
  readonly set?: string;
  /** Condition for updating a conflicting row (e.g. the settling session only while its lease holds). */
  readonly where?: string;
}

/** The `up` CTE body; its four arrays are parameters `$first` … `$first+3`. */
export function sessionUpsertSql(
  t: Tables,
  nowMs: string,
  first: number,
  options: SessionUpsertOptions = {},
): string {
  const p = (offset: number) => `$${first + offset}`;
  return `INSERT INTO ${t.sessions} AS s (input, session_id, last_seq, message_count, locked_until)
      SELECT k.input, k.session_id, k.added, k.delta, ${nowMs}
      FROM unnest(${p(0)}::text[], ${p(1)}::text[], ${p(2)}::bigint[], ${p(3)}::bigint[]) WITH ORDINALITY
        AS k(input, session_id, added, delta, ord)
      ${options.onlyIf ? `WHERE ${options.onlyIf}` : ''}
      ORDER BY k.ord
      ON CONFLICT (input, session_id) DO UPDATE SET
        last_seq = s.last_seq + excluded.last_seq,
        message_count = s.message_count + excluded.message_count,
        locked_until = ${readySince('s', nowMs)}${options.set ? `,\n        ${options.set}` : ''}
      ${options.where ? `WHERE ${options.where}` : ''}
      RETURNING input, session_id, last_seq, lock_token`;
}

/**
 * The `ins` CTE body, joined to `up` for the sequences; its eight arrays are parameters `$first` … `$first+7`.
 * Rows go in in array order, which is sequence order: a join's output order is the plan's (a generic plan's hash
 * join hands a session's rows back reversed), and row triggers and logical decoding see the insertion order.
 */
export function lineInsertSql(t: Tables, nowMs: string, first: number): string {
  const p = (offset: number) => `$${first + offset}`;
  return `INSERT INTO ${t.messages} (input, session_id, seq, message_id, correlation_id, headers, body, enqueued_at, visible_at)
      SELECT d.input, d.session_id, u.last_seq - d.group_size + d.position, d.message_id, d.correlation_id, d.headers,
        d.body, ${nowMs}, ${nowMs}
      FROM unnest(${p(0)}::text[], ${p(1)}::text[], ${p(2)}::bigint[], ${p(3)}::bigint[], ${p(4)}::text[],
        ${p(5)}::text[], ${p(6)}::text[], ${p(7)}::text[]) WITH ORDINALITY
        AS d(input, session_id, position, group_size, message_id, correlation_id, headers, body, ord)
      JOIN up u ON u.input = d.input AND u.session_id = d.session_id
      ORDER BY d.ord
      RETURNING input`;
}
