import {
  type AcceptOptions,
  type AcceptSessionsOptions,
  consoleLogger,
  type DeadLetteredMessage,
  type InputControl,
  LifecycleRunner,
  NimBusError,
  NimBusErrorCode,
  type PeekedMessage,
  type PublishRequest,
  type PurgeTarget,
  probeReadiness,
  type Readiness,
  RunnerLifecycle,
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
  whenAborted,
} from '@nimbus/core';
import { assertPublishBatchSize } from '@nimbus/core/transport-spi';
import { describeDriverError } from '@nimbus/sql';
import type { WakeupListener } from './dialect/dialect.js';
import { sweepIdleSessionRows } from './idle-sessions.js';
import { dialectOf } from './open-database.js';
import { counts, peek, peekDeadLetters, purge, requeueDeadLetters } from './operator-views.js';
import { resolveOptions, type SqlTransportConnection, type SqlTransportOptions } from './options.js';
import { migrateTransportSchema } from './schema.js';
import { tryLease, tryLeaseMany } from './session-lease.js';
import type { SettleGroupStats } from './settle-group.js';
import { hasProjected, SqlCore } from './sql-core.js';
import { SqlInputControl } from './sql-input-control.js';
import { applyTopology } from './topology-apply.js';

/** An accept that is not the first waiter of its input polls this many poll intervals apart (the first polls). */
const FOLLOWER_POLL_FACTOR = 10;

/** Bounds one sweep call, so a huge backlog of idle rows is worked off over several intervals. */
const MAX_SWEEP_BATCHES = 20;

/**
 * The durable transport over SQLite (one machine, many processes) or PostgreSQL (many machines). Opened by
 * `createSqlTransport` (`running`). `stop({ timeoutMs })` (= `close()`): later calls fail with `Closed`, waiting
 * accepts and receives end with it at once, an idle-session sweep in progress may finish (at most `timeoutMs`), then
 * the LISTEN connection and the database are closed. `abort()`: the same without waiting for the sweep.
 */
export class SqlTransport extends RunnerLifecycle implements Transport {
  readonly name: string;
  readonly capabilities: TransportCapabilities;
  readonly control: InputControl;
  protected readonly lifecycle = new LifecycleRunner(
    { stop: ({ signal }) => this.#release(signal) },
    { name: 'the SQL transport', closedError: (m) => new TransportError(TransportErrorCode.Closed, m) },
  );

  private readonly core: SqlCore;
  #listener: WakeupListener | null = null;

  private constructor(parts: CoreParts) {
    super();
    const core = new SqlCore(
      parts.dialect,
      parts.db,
      parts.tables,
      parts.options,
      parts.logger,
      this.lifecycle,
      parts.projection,
    );
    this.core = core;
    this.name = `sql-${core.dialect.name}`;
    this.control = new SqlInputControl(core.db, core.t);
    const { options } = core;
    this.capabilities = {
      atomicSettleAndPublish: true,
      settleMany: true,
      nativeScheduling: true,
      maxBatchBytes: options.maxBatchBytes,
      maxDeliveryCount: options.maxDeliveryCount,
      lockDurationMs: options.lockDurationMs,
    };
  }

  /**
   * Cheap readiness probe (for `/readyz`): a `SELECT 1` with a 2 s deadline. Never throws; while the database is
   * down it says why (e.g. `connection (ECONNREFUSED): …`). The LISTEN connection is not part of it: without it
   * the transport polls and stays correct.
   */
  checkReadiness(): Promise<Readiness> {
    if (this.state !== 'running') return Promise.resolve({ ready: false, reason: 'SQL transport: closed' });
    return probeReadiness(`SQL transport (${this.core.dialect.name})`, () => this.core.db.all('SELECT 1'), {
      describeError: describeDriverError,
    });
  }

  /** Opens the database, migrates or verifies the schema (no DDL when current) and, on PostgreSQL, starts listening for wake-ups. */
  static async open(
    connection: SqlTransportConnection,
    options: SqlTransportOptions = {},
  ): Promise<SqlTransport> {
    const dialect = dialectOf(connection);
    const resolved = resolveOptions(options, dialect.defaultPollIntervalMs);
    const projection = options.projection ?? null;
    if (projection !== null && projection.dialect !== dialect.name) {
      throw new NimBusError(
        NimBusErrorCode.InvalidOption,
        `SQL transport: the co-located projection is for ${projection.dialect}, the transport is on ${dialect.name}; a co-located store must live in the transport's database`,
      );
    }
    const opened = dialect.database.open(connection, resolved.busyTimeoutMs);
    const { db, tables, namespace } = opened;
    const logger = options.logger ?? consoleLogger;
    try {
      await migrateTransportSchema(dialect, db, tables, namespace, {
        mode: options.migrationMode ?? 'AutoApply',
        ...(options.onMigrationProgress ? { onProgress: options.onMigrationProgress } : {}),
      });
    } catch (error) {
      await db.close();
      throw error;
    }
    const transport = new SqlTransport({ dialect, db, tables, options: resolved, logger, projection });
    try {
      transport.#listener = await opened.listen(transport.core.wakeups, logger, resolved);
    } catch (error) {
      await transport.abort(); // closes the database
      throw error;
    }
    transport.#startSweeping();
    return transport;
  }

  /**
   * Deletes idle session rows (empty line, no state, nothing parked or scheduled, no live lease), up to `limit`
   * per batch until none are left; returns how many went. Runs every `idleSessionSweepMs` on its own.
   */
  async sweepIdleSessions(limit = 500): Promise<number> {
    this.lifecycle.assertUsable('sweepIdleSessions');
    let removed = 0;
    for (let batch = 0; batch < MAX_SWEEP_BATCHES; batch++) {
      const deleted = await sweepIdleSessionRows(this.core, this.core.dialect.locks, limit);
      removed += deleted;
      if (deleted < limit) break;
    }
    return removed;
  }

  #sweepTimer: NodeJS.Timeout | null = null;
  #sweeping: Promise<void> | null = null;

  #startSweeping(): void {
    const every = this.core.options.idleSessionSweepMs;
    if (every === 0) return;
    this.#sweepTimer = setInterval(() => {
      if (this.#sweeping) return;
      this.#sweeping = this.sweepIdleSessions()
        .then(
          () => undefined,
          (error: unknown) =>
            this.core.logger.warn(
              { error },
              'SQL transport: idle session sweep failed; retrying next interval',
            ),
        )
        .finally(() => {
          this.#sweeping = null;
        });
    }, every);
    this.#sweepTimer.unref();
  }

  /** Counters of the group commit across sessions (groups written, settlements in them, groups refused). */
  get settleGroupStats(): Readonly<SettleGroupStats> {
    return { ...this.core.settleGroup.stats };
  }

  applyTopology(topology: Topology): Promise<TopologyChanges> {
    return applyTopology(this.core, topology);
  }

  async getTopology(): Promise<Topology> {
    this.lifecycle.assertUsable('getTopology');
    this.core.invalidateTopology();
    return (await this.core.topology()).topology;
  }

  async publish(requests: readonly PublishRequest[]): Promise<void> {
    const { core } = this;
    this.lifecycle.assertUsable('publish');
    assertPublishBatchSize(requests, core.options.maxBatchBytes);
    const plans = await core.planPublish(requests);
    if (plans.every((plan) => plan.deliveries.length === 0) && !hasProjected(plans)) return;
    core.wakeLocal(await core.publish(plans));
  }

  async schedule(source: string, message: TransportMessage, at: Date): Promise<ScheduleHandle> {
    const { core } = this;
    this.lifecycle.assertUsable('schedule');
    if (!(at instanceof Date) || Number.isNaN(at.getTime())) {
      throw new TransportError(TransportErrorCode.InvalidArgument, 'schedule: at must be a valid Date');
    }
    assertPublishBatchSize([{ source, messages: [message] }], core.options.maxBatchBytes);
    const [plan] = await core.planPublish([{ source, messages: [message] }], Date.now(), false);
    const id = uuidv7();
    await core.db.transaction((tx) => core.writeScheduled(tx, id, source, at.getTime(), plan!.deliveries));
    // A schedule in the past is due at once; waiters re-check and promote it.
    for (const delivery of plan!.deliveries) core.wakeups.notifyInput(delivery.input);
    return { id, source };
  }

  async cancelScheduled(handle: ScheduleHandle): Promise<void> {
    this.lifecycle.assertUsable('cancelScheduled');
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
    const sessionId = options.sessionId ?? null;
    const [handle] = await this.#acceptUpTo(input, options, sessionId, async () => {
      const leased = await tryLease(this.core, input, sessionId);
      return leased ? [leased] : [];
    });
    return handle ?? null;
  }

  /** Up to `max` sessions in one statement (PostgreSQL) or one transaction (SQLite), longest ready first. */
  async acceptSessions(options: AcceptSessionsOptions): Promise<SessionHandle[]> {
    const { input, max } = options;
    if (!(Number.isInteger(max) && max >= 1))
      throw new NimBusError(
        NimBusErrorCode.InvalidArgument,
        `acceptSessions: max must be an integer ≥ 1, got ${max}`,
      );
    return this.#acceptUpTo(input, options, null, () =>
      max === 1
        ? tryLease(this.core, input, null).then((leased) => (leased ? [leased] : []))
        : tryLeaseMany(this.core, input, max),
    );
  }

  async #acceptUpTo(
    input: string,
    options: { readonly waitMs: number; readonly signal?: AbortSignal },
    sessionId: string | null,
    lease: () => Promise<SessionHandle[]>,
  ): Promise<SessionHandle[]> {
    const { core } = this;
    this.lifecycle.assertUsable('acceptSession');
    await core.assertInput(input);
    if (!(options.waitMs >= 0))
      throw new NimBusError(
        NimBusErrorCode.InvalidArgument,
        `acceptSession: waitMs must be ≥ 0, got ${options.waitMs}`,
      );
    const done = core.wakeups.beginAccept(input);
    const state = { waited: false };
    try {
      return await this.#accept(input, options, sessionId, state, lease);
    } finally {
      done();
      // One waiter is woken per unit of work, and only the first waiter polls: when a waiting accept leaves (with
      // a session or not), the next one looks now (there may be more work) and becomes the poller.
      if (state.waited && sessionId === null) core.wakeups.passOn(input);
    }
  }

  async #accept(
    input: string,
    options: { readonly waitMs: number; readonly signal?: AbortSignal },
    sessionId: string | null,
    state: { waited: boolean },
    lease: () => Promise<SessionHandle[]>,
  ): Promise<SessionHandle[]> {
    const { core } = this;
    const deadline = Date.now() + options.waitMs;
    let interval = core.dialect.wakeups.firstPollMs(core.options);
    for (;;) {
      this.lifecycle.assertUsable('acceptSession');
      if (options.signal?.aborted) return [];
      const handles = await lease();
      if (handles.length > 0) {
        for (const handle of handles) core.wakeups.taken(input, handle.sessionId);
        return handles;
      }
      const nextDue = await core.promoteDue(input);
      if (nextDue === 0) continue;
      const remaining = deadline - Date.now();
      if (remaining <= 0) return [];
      // Work written by this process wakes a waiter directly (NOTIFY does across processes on PostgreSQL), so
      // polling is only the fallback for what that misses; one poller per input is enough.
      const follower = sessionId === null ? core.wakeups.waitingAccepts(input) > 0 : false;
      const poll = follower ? FOLLOWER_POLL_FACTOR * core.options.pollIntervalMs : interval;
      state.waited = true;
      await core.wakeups.wait(
        input,
        sessionId,
        Math.max(1, Math.min(remaining, poll, nextDue ?? poll)),
        options.signal ? { signal: options.signal } : {},
      );
      interval = core.dialect.wakeups.nextPollMs(interval, core.options);
    }
  }

  peek(
    input: string,
    options?: { readonly max?: number; readonly sessionId?: string },
  ): Promise<PeekedMessage[]> {
    return peek(this.core, input, options);
  }

  counts(input: string): Promise<TransportCounts> {
    return counts(this.core, input);
  }

  peekDeadLetters(input: string, max = 100): Promise<DeadLetteredMessage[]> {
    return peekDeadLetters(this.core, input, max);
  }

  requeueDeadLetters(input: string, ids?: readonly string[]): Promise<number> {
    return requeueDeadLetters(this.core, input, ids);
  }

  purge(input: string, target: PurgeTarget): Promise<number> {
    return purge(this.core, input, target);
  }

  async #release(deadline: AbortSignal): Promise<void> {
    if (this.#sweepTimer) clearInterval(this.#sweepTimer);
    const sweeping = this.#sweeping;
    this.core.shutDown();
    await Promise.race([sweeping, whenAborted(deadline)]); // the sweep never rejects: failures were logged
    await this.#listener?.stop();
    await this.core.db.close();
  }
}

/** What the transport's shared core is made of (it is built with the transport's lifecycle). */
interface CoreParts {
  readonly dialect: SqlCore['dialect'];
  readonly db: SqlCore['db'];
  readonly tables: SqlCore['t'];
  readonly options: SqlCore['options'];
  readonly logger: SqlCore['logger'];
  readonly projection: SqlCore['projection'];
}

/** Creates the SQL transport; the schema is created or verified on the way. */
export function createSqlTransport(
  connection: SqlTransportConnection,
  options: SqlTransportOptions = {},
): Promise<SqlTransport> {
  return SqlTransport.open(connection, options);
}
