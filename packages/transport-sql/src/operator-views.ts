import {
  type DeadLetteredMessage,
  type PeekedMessage,
  type PurgeTarget,
  type TransportCounts,
  TransportError,
  TransportErrorCode,
} from '@nimbus/core';
import { deadLetterFromRow, parseHeaders, peekedFromRow } from './rows.js';

/** Ids per DELETE statement when requeueing (well below SQLite's bound-parameter limit). */
const REQUEUE_CHUNK = 500;

import { deliveryFromRow, type SqlCore } from './sql-core.js';
import { countRows } from './topology-apply.js';

// Operator views (WebApp, CLI): plain SQL over the transport's tables.

export async function peek(
  core: SqlCore,
  input: string,
  options?: { readonly max?: number; readonly sessionId?: string },
): Promise<PeekedMessage[]> {
  core.lifecycle.assertUsable('peek');
  await core.assertInput(input);
  await core.promoteDue(input);
  const session = options?.sessionId === undefined ? '' : ' AND session_id = ?';
  const params: unknown[] = [input];
  if (options?.sessionId !== undefined) params.push(options.sessionId);
  params.push(options?.max ?? 100);
  const rows = await core.db.all(
    `SELECT * FROM ${core.t.messages} WHERE input = ?${session} ORDER BY id LIMIT ?`,
    params,
  );
  return rows.map(peekedFromRow);
}

export async function counts(core: SqlCore, input: string): Promise<TransportCounts> {
  core.lifecycle.assertUsable('counts');
  await core.assertInput(input);
  await core.promoteDue(input);
  return countRows(core.db, core, input);
}

export async function peekDeadLetters(
  core: SqlCore,
  input: string,
  max = 100,
): Promise<DeadLetteredMessage[]> {
  core.lifecycle.assertUsable('peekDeadLetters');
  await core.assertInput(input);
  const rows = await core.db.all(
    `SELECT * FROM ${core.t.deadLetters} WHERE input = ? ORDER BY dead_lettered_at, id LIMIT ?`,
    [input, max],
  );
  return rows.map(deadLetterFromRow);
}

export async function requeueDeadLetters(
  core: SqlCore,
  input: string,
  ids?: readonly string[],
): Promise<number> {
  core.lifecycle.assertUsable('requeueDeadLetters');
  await core.assertInput(input);
  if (ids !== undefined && ids.length === 0) return 0;
  const { t } = core;
  const filter = ids === undefined ? '' : ` AND id IN (${ids.map(() => '?').join(', ')})`;
  const { moved, inputs } = await core.db.transaction(async (tx) => {
    const rows = await tx.all(`SELECT id, headers FROM ${t.deadLetters} WHERE input = ?${filter}`, [
      input,
      ...(ids ?? []),
    ]);
    // Unreadable headers stay dead-lettered (shown as such); they would fail at once on the input again.
    const readable = rows
      .filter((row) => typeof parseHeaders(row.headers) !== 'string')
      .map((r) => String(r.id));
    const taken = [];
    for (let start = 0; start < readable.length; start += REQUEUE_CHUNK) {
      const chunk = readable.slice(start, start + REQUEUE_CHUNK);
      // DELETE … RETURNING: a concurrent requeue that took a row first leaves it out here.
      const marks = chunk.map(() => '?').join(', ');
      taken.push(...(await tx.all(`DELETE FROM ${t.deadLetters} WHERE id IN (${marks}) RETURNING *`, chunk)));
    }
    taken.sort(
      (a, b) =>
        Number(a.dead_lettered_at) - Number(b.dead_lettered_at) || String(a.id).localeCompare(String(b.id)),
    );
    return { moved: taken.length, inputs: await core.writeDeliveries(tx, taken.map(deliveryFromRow)) };
  });
  core.wakeLocal(inputs);
  return moved;
}

export async function purge(core: SqlCore, input: string, target: PurgeTarget): Promise<number> {
  core.lifecycle.assertUsable('purge');
  await core.assertInput(input);
  if (!['active', 'scheduled', 'deadLettered', 'parked', 'all'].includes(target)) {
    throw new TransportError(TransportErrorCode.InvalidArgument, `purge: unknown target '${String(target)}'`);
  }
  await core.promoteDue(input);
  const { t } = core;
  const all = target === 'all';
  return core.db.transaction(async (tx) => {
    let removed = 0;
    if (all || target === 'active') {
      removed += await tx.run(`DELETE FROM ${t.messages} WHERE input = ?`, [input]);
      await tx.run(`UPDATE ${t.sessions} SET message_count = 0 WHERE input = ? AND message_count <> 0`, [
        input,
      ]);
    }
    if (all || target === 'scheduled')
      removed += await tx.run(`DELETE FROM ${t.scheduled} WHERE input = ?`, [input]);
    if (all || target === 'deadLettered')
      removed += await tx.run(`DELETE FROM ${t.deadLetters} WHERE input = ?`, [input]);
    if (all || target === 'parked')
      removed += await tx.run(`DELETE FROM ${t.parked} WHERE input = ?`, [input]);
    return removed;
  });
}
