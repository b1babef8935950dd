import {
  type AcceptOptions,
  consoleLogger,
  type DeadLetteredMessage,
  diffTopology,
  type PeekedMessage,
  type PublishRequest,
  type PurgeTarget,
  RESOLVER_INPUT,
  type ScheduleHandle,
  type SessionHandle,
  type Topology,
  type TopologyChanges,
  type Transport,
  type TransportCapabilities,
  type TransportCounts,
  TransportError,
  TransportErrorCode,
  type TransportMessage,
  uuidv7,
} from '@nimbus/core';
import { resolveOptions, type SqlTransportConnection, type SqlTransportOptions } from './options.js';
import { PgListener } from './pg-listener.js';
import { publishInOneStatement } from './pg-settle.js';
import { deadLetterFromRow, peekedFromRow } from './rows.js';
import { applySchema } from './schema.js';
import type { SqlDatabase } from './sql/database.js';
import { openPostgresDatabase } from './sql/postgres-database.js';
import { openSqliteDatabase } from './sql/sqlite-database.js';
import { deliveryFromRow, MAX_DELIVERY_COUNT_REASON, maxDeliveryDescription, SqlCore } from './sql-core.js';
import { localExpiry, SqlSessionHandle } from './sql-session-handle.js';
import { type Tables, tableNames } from './tables.js';
import { assertBatchSize } from './validation.js';

/** The durable transport over SQLite (one machine, many processes) or PostgreSQL (many machines). */
export class SqlTransport implements Transport {
  readonly name: string;
  readonly capabilities: TransportCapabilities;

  private constructor(
    private readonly core: SqlCore,
    private readonly listener: PgListener | null,
  ) {
    this.name = `sql-${core.db.dialect}`;
    const { options } = core;
    this.capabilities = {
      atomicSettleAndPublish: true,
      nativeScheduling: true,
      maxBatchBytes: options.maxBatchBytes,
      maxDeliveryCount: options.maxDeliveryCount,
      lockDurationMs: options.lockDurationMs,
    };
  }

  /** Opens the database, applies the DDL (idempotent) and, on PostgreSQL, starts listening for wake-ups. */
  static async open(
    connection: SqlTransportConnection,
    options: SqlTransportOptions = {},
  ): Promise<SqlTransport> {
    const resolved = resolveOptions(connection.dialect, options);
    let db: SqlDatabase;
    let tables: Tables;
    let schema: string | null = null;
    if (connection.dialect === 'sqlite') {
      if (typeof connection.path !== 'string' || connection.path.length === 0) {
        throw new RangeError('SQL transport: sqlite connection needs a non-empty path');
      }
      tables = tableNames('sqlite', connection.tablePrefix ?? 'nimbus_transport_');
      db = openSqliteDatabase(connection.path, resolved.busyTimeoutMs);
    } else if (connection.dialect === 'postgres') {
      if (typeof connection.connectionString !== 'string' || connection.connectionString.length === 0) {
        throw new RangeError('SQL transport: postgres connection needs a non-empty connectionString');
      }
      schema = connection.schema ?? 'nimbus_transport';
      tables = tableNames('postgres', schema);
      db = openPostgresDatabase(connection.connectionString, connection.poolSize ?? 10);
    } else {
      throw new RangeError(
        `SQL transport: dialect must be 'sqlite' or 'postgres', got '${String((connection as { dialect?: unknown }).dialect)}'`,
      );
    }
    const logger = options.logger ?? consoleLogger;
    const core = new SqlCore(db, tables, resolved, logger);
    let listener: PgListener | null = null;
    try {
      await applySchema(db, tables, schema);
      if (connection.dialect === 'postgres') {
        listener = new PgListener(connection.connectionString, tables.channel, {
          onNotify: (input) => core.wakeups.notify(input),
          onReconnect: () => core.wakeups.notifyAll(),
          onLost: (error) =>
            logger.warn({ error }, 'SQL transport: LISTEN connection lost; reconnecting (polling meanwhile)'),
        });
        await listener.start();
      }
    } catch (error) {
      await db.close();
      throw error;
    }
    return new SqlTransport(core, listener);
  }

  async applyTopology(topology: Topology): Promise<TopologyChanges> {
    const { core } = this;
    core.assertOpen();
    const { db, t } = core;
    const changes = await db.transaction(async (tx) => {
      if (db.dialect === 'postgres') await tx.run(`SELECT pg_advisory_xact_lock(hashtext(?))`, [t.inputs]);
      core.invalidateTopology();
      const endpoints = (await tx.all(`SELECT name FROM ${t.inputs} WHERE kind = 'endpoint'`)).map((r) =>
        String(r.name),
      );
      const routes = (await tx.all(`SELECT source, event_type_id, target FROM ${t.routes}`)).map((r) => ({
        source: String(r.source),
        eventTypeId: String(r.event_type_id),
        target: String(r.target),
      }));
      const diff = diffTopology({ endpoints, routes }, topology);
      await tx.run(
        `INSERT INTO ${t.inputs} (name, kind) VALUES (?, 'resolver') ON CONFLICT (name) DO NOTHING`,
        [RESOLVER_INPUT],
      );
      for (const endpoint of diff.removedEndpoints) {
        await tx.run(`DELETE FROM ${t.inputs} WHERE name = ? AND kind = 'endpoint'`, [endpoint]);
      }
      for (const endpoint of diff.addedEndpoints) {
        await tx.run(
          `INSERT INTO ${t.inputs} (name, kind) VALUES (?, 'endpoint') ON CONFLICT (name) DO NOTHING`,
          [endpoint],
        );
      }
      for (const route of diff.removedRoutes) {
        await tx.run(`DELETE FROM ${t.routes} WHERE source = ? AND event_type_id = ? AND target = ?`, [
          route.source,
          route.eventTypeId,
          route.target,
        ]);
      }
      for (const route of diff.addedRoutes) {
        await tx.run(
          `INSERT INTO ${t.routes} (source, event_type_id, target) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`,
          [route.source, route.eventTypeId, route.target],
        );
      }
      return diff;
    });
    core.invalidateTopology();
    core.wakeups.notifyAll();
    return changes;
  }

  async getTopology(): Promise<Topology> {
    this.core.assertOpen();
    this.core.invalidateTopology();
    return (await this.core.topology()).topology;
  }

  async publish(requests: readonly PublishRequest[]): Promise<void> {
    const { core } = this;
    core.assertOpen();
    assertBatchSize(requests, core.options.maxBatchBytes);
    const plans = await core.planPublish(requests);
    if (plans.every((plan) => plan.deliveries.length === 0)) return;
    const inputs =
      core.db.dialect === 'postgres' && plans.every((plan) => plan.dueAt === null)
        ? await publishInOneStatement(
            core.db,
            core.t,
            core.now,
            plans.flatMap((plan) => plan.deliveries),
            (inputs) => core.notifyNow(inputs),
          )
        : await core.db.transaction((tx) => core.writePlans(tx, plans));
    core.wakeLocal(inputs);
  }

  async schedule(source: string, message: TransportMessage, at: Date): Promise<ScheduleHandle> {
    const { core } = this;
    core.assertOpen();
    if (!(at instanceof Date) || Number.isNaN(at.getTime())) {
      throw new TransportError(TransportErrorCode.InvalidArgument, 'schedule: at must be a valid Date');
    }
    assertBatchSize([{ source, messages: [message] }], core.options.maxBatchBytes);
    const [plan] = await core.planPublish([{ source, messages: [message] }]);
    const id = uuidv7();
    await core.db.transaction((tx) => core.writeScheduled(tx, id, source, at.getTime(), plan!.deliveries));
    // A schedule in the past is due at once; waiters re-check and promote it.
    for (const delivery of plan!.deliveries) core.wakeups.notify(delivery.input);
    return { id, source };
  }

  async cancelScheduled(handle: ScheduleHandle): Promise<void> {
    this.core.assertOpen();
    const removed = await this.core.db.run(
      `DELETE FROM ${this.core.t.scheduled} WHERE schedule_id = ? AND source = ?`,
      [handle.id, handle.source],
    );
    if (removed === 0) {
      throw new TransportError(
        TransportErrorCode.MessageNotFound,
        `No scheduled message with handle '${handle.id}' on '${handle.source}' (unknown, cancelled or already enqueued)`,
      );
    }
  }

  async acceptSession(input: string, options: AcceptOptions): Promise<SessionHandle | null> {
    const { core } = this;
    core.assertOpen();
    await core.assertInput(input);
    if (!(options.waitMs >= 0))
      throw new RangeError(`acceptSession: waitMs must be ≥ 0, got ${options.waitMs}`);
    const deadline = Date.now() + options.waitMs;
    let interval = core.options.minPollIntervalMs;
    for (;;) {
      core.assertOpen();
      if (options.signal?.aborted) return null;
      const handle = await this.#tryLease(input, options.sessionId ?? null);
      if (handle) return handle;
      const nextDue = await core.promoteDue(input);
      if (nextDue === 0) continue;
      const remaining = deadline - Date.now();
      if (remaining <= 0) return null;
      const poll = core.db.dialect === 'postgres' ? core.options.pollIntervalMs : interval;
      await core.wakeups.wait(input, Math.max(1, Math.min(remaining, poll, nextDue ?? poll)), options.signal);
      interval = Math.min(interval * 2 || 1, core.options.pollIntervalMs);
    }
  }

  /** Leases the named session, or the free session with work that has waited longest; null if none. */
  async #tryLease(input: string, sessionId: string | null): Promise<SqlSessionHandle | null> {
    const { core } = this;
    const { t, now, db } = core;
    const token = uuidv7();
    const askedAt = Date.now();
    const named = sessionId === null ? '' : ' AND session_id = ?';
    const params: unknown[] = [core.options.lockDurationMs, token, input, input];
    if (sessionId !== null) params.push(sessionId);
    const rows = await db.all(
      `UPDATE ${t.sessions} SET locked_until = ${now} + ?, lock_token = ?
       WHERE input = ? AND session_id = (
         SELECT session_id FROM ${t.sessions} WHERE input = ? AND message_count > 0 AND locked_until <= ${now}${named}
         ORDER BY locked_until LIMIT 1${db.skipLocked})
       RETURNING session_id, locked_until, ${now} AS db_now`,
      params,
      { prepared: true },
    );
    const row = rows[0];
    if (!row) return null;
    const lockedUntil = localExpiry(askedAt, row);
    const handle = new SqlSessionHandle(core, input, String(row.session_id), token, lockedUntil);
    if (await this.#deadLetterExhausted(input, String(row.session_id), token)) return handle;
    await handle.release();
    return null;
  }

  /**
   * Dead-letters messages whose last delivery hit the limit and whose lease then lapsed, before anyone sees them
   * again. Returns whether the newly leased session has anything left to receive.
   */
  async #deadLetterExhausted(input: string, sessionId: string, token: string): Promise<boolean> {
    const { core } = this;
    const { t, db } = core;
    const max = core.options.maxDeliveryCount;
    const [line] = await db.all(
      `SELECT EXISTS (SELECT 1 FROM ${t.messages} WHERE input = ? AND session_id = ? AND held_by IS NOT NULL
                        AND held_by <> ? AND delivery_count >= ?) AS exhausted,
              EXISTS (SELECT 1 FROM ${t.messages} WHERE input = ? AND session_id = ?) AS pending`,
      [input, sessionId, token, max, input, sessionId],
      { prepared: true },
    );
    // A count left high by a lease that ended without release: nothing to do; releasing sets the count right.
    if (!truthy(line?.pending)) return false;
    if (!truthy(line?.exhausted)) return true;
    return db.transaction(async (tx) => {
      const rows = await tx.all(
        `DELETE FROM ${t.messages} WHERE input = ? AND session_id = ? AND held_by IS NOT NULL AND held_by <> ? AND delivery_count >= ?
         RETURNING *`,
        [input, sessionId, token, max],
      );
      for (const row of rows) {
        await core.insertDeadLetter(
          tx,
          row,
          MAX_DELIVERY_COUNT_REASON,
          maxDeliveryDescription(Number(row.delivery_count), max),
        );
      }
      const [left] = await tx.all(
        `UPDATE ${t.sessions} SET message_count = message_count - ? WHERE input = ? AND session_id = ? RETURNING message_count`,
        [rows.length, input, sessionId],
      );
      return Number(left?.message_count ?? 0) > 0;
    });
  }

  async peek(
    input: string,
    options?: { readonly max?: number; readonly sessionId?: string },
  ): Promise<PeekedMessage[]> {
    const { core } = this;
    core.assertOpen();
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

  async counts(input: string): Promise<TransportCounts> {
    const { core } = this;
    core.assertOpen();
    await core.assertInput(input);
    await core.promoteDue(input);
    const { t } = core;
    const [row] = await core.db.all(
      `SELECT (SELECT COUNT(*) FROM ${t.messages} WHERE input = ?) AS active,
              (SELECT COUNT(*) FROM ${t.scheduled} WHERE input = ?) AS scheduled,
              (SELECT COUNT(*) FROM ${t.deadLetters} WHERE input = ?) AS dead_lettered,
              (SELECT COUNT(*) FROM ${t.parked} WHERE input = ?) AS parked`,
      [input, input, input, input],
    );
    return {
      active: Number(row?.active ?? 0),
      scheduled: Number(row?.scheduled ?? 0),
      deadLettered: Number(row?.dead_lettered ?? 0),
      parked: Number(row?.parked ?? 0),
    };
  }

  async peekDeadLetters(input: string, max = 100): Promise<DeadLetteredMessage[]> {
    const { core } = this;
    core.assertOpen();
    await core.assertInput(input);
    const rows = await core.db.all(
      `SELECT * FROM ${core.t.deadLetters} WHERE input = ? ORDER BY dead_lettered_at, id LIMIT ?`,
      [input, max],
    );
    return rows.map(deadLetterFromRow);
  }

  async requeueDeadLetters(input: string, ids?: readonly string[]): Promise<number> {
    const { core } = this;
    core.assertOpen();
    await core.assertInput(input);
    if (ids !== undefined && ids.length === 0) return 0;
    const { t } = core;
    const filter = ids === undefined ? '' : ` AND id IN (${ids.map(() => '?').join(', ')})`;
    const { moved, inputs } = await core.db.transaction(async (tx) => {
      const rows = await tx.all(`DELETE FROM ${t.deadLetters} WHERE input = ?${filter} RETURNING *`, [
        input,
        ...(ids ?? []),
      ]);
      rows.sort(
        (a, b) =>
          Number(a.dead_lettered_at) - Number(b.dead_lettered_at) || String(a.id).localeCompare(String(b.id)),
      );
      return { moved: rows.length, inputs: await core.writeDeliveries(tx, rows.map(deliveryFromRow)) };
    });
    core.wakeLocal(inputs);
    return moved;
  }

  async purge(input: string, target: PurgeTarget): Promise<number> {
    const { core } = this;
    core.assertOpen();
    await core.assertInput(input);
    if (!['active', 'scheduled', 'deadLettered', 'parked', 'all'].includes(target)) {
      throw new TransportError(
        TransportErrorCode.InvalidArgument,
        `purge: unknown target '${String(target)}'`,
      );
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

  async close(): Promise<void> {
    if (this.#closing) return this.#closing;
    this.core.markClosed();
    this.#closing = (async () => {
      await this.listener?.stop();
      await this.core.db.close();
    })();
    return this.#closing;
  }

  #closing: Promise<void> | null = null;

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}

/** Creates the SQL transport; the schema is created or verified on the way. */
export function createSqlTransport(
  connection: SqlTransportConnection,
  options: SqlTransportOptions = {},
): Promise<SqlTransport> {
  return SqlTransport.open(connection, options);
}

/** SQLite answers booleans as 0/1, PostgreSQL as true/false. */
function truthy(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 't';
}
