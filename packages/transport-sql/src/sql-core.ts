import {
  isTransportError,
  type LifecycleRunner,
  type Logger,
  type PublishRequest,
  RESOLVER_INPUT,
  type Route,
  replyInputOf,
  type Topology,
  TransportError,
  TransportErrorCode,
  uuidv7,
} from '@nimbus/core';
import {
  assertPublishSource,
  assertTransportMessage,
  type Delivery,
  routeKey,
  routeMessage,
} from '@nimbus/core/transport-spi';
import type { ColocatedProjection } from '@nimbus/message-store';
import { CommittedWork, takeProjected, writeProjected } from './colocated-copies.js';
import type { TransportDialect, WorkNotifier } from './dialect/dialect.js';
import { appendToLines, type LineWriterContext, type OwnSessionUpdate } from './line-writer.js';
import type { ResolvedOptions } from './options.js';
import { type PublishPlan, plainPlans } from './publish-plan.js';
import { SettleGroup } from './settle-group.js';
import { settleMany, settleOne } from './settle-paths.js';
import type { Row, SqlDatabase, SqlExecutor } from './sql/database.js';
import { StatementTexts } from './statement-texts.js';
import type { Tables } from './tables.js';
import { TakeGroup } from './take-group.js';
import { Wakeups } from './wakeups.js';

interface CachedTopology {
  readonly topology: Topology;
  readonly inputs: ReadonlySet<string>;
  readonly loadedAt: number;
}

export { hasProjected, type PublishPlan } from './publish-plan.js';

/** Shared state and the SQL steps used by both the transport facade and its session handles. */
export class SqlCore {
  /** Names this transport in its NOTIFY payloads, so it skips its own (its waiters were woken at commit). */
  readonly origin = uuidv7();
  readonly wakeups = new Wakeups(this.origin);
  readonly texts = new StatementTexts();
  /** Plain completions of several session leases, settled in one transaction (settle-group.ts). */
  readonly settleGroup: SettleGroup;
  /** Receives of several leases in the same turn, in one statement (take-group.ts). */
  readonly takeGroup = new TakeGroup(this);
  #lineWriter: LineWriterContext | null = null;
  readonly #notifier: WorkNotifier;
  #cache: CachedTopology | null = null;

  constructor(
    /** The dialect chosen at open: every statement that differs between SQLite and PostgreSQL comes from it. */
    readonly dialect: TransportDialect,
    readonly db: SqlDatabase,
    readonly t: Tables,
    readonly options: ResolvedOptions,
    readonly logger: Logger,
    /** The transport's lifecycle: the one place that knows whether it was stopped. */
    readonly lifecycle: Pick<LifecycleRunner, 'assertUsable'>,
    /** The co-located message store's projection, when the store lives in this database. */
    readonly projection: ColocatedProjection | null = null,
  ) {
    this.#notifier = dialect.wakeups.createNotifier({
      origin: this.origin,
      windowMs: options.notifyWindowMs,
      db,
      channel: t.channel,
      logger,
    });
    this.settleGroup = new SettleGroup(
      this,
      options.settleGroupConcurrency,
      options.settleGroupMaxMessages,
      (lease, planned) => (planned.length === 1 ? settleOne(lease, planned[0]!) : settleMany(lease, planned)),
    );
  }

  /** The NOTIFY payloads for these work keys that belong in the current transaction (none on SQLite). */
  notifyNow(workKeys: Iterable<string>): string[] {
    return this.#notifier.take(workKeys);
  }

  get lineWriter(): LineWriterContext {
    this.#lineWriter ??= {
      t: this.t,
      nowMs: this.db.nowMs,
      notifyNow: (workKeys) => this.notifyNow(workKeys),
      insertLastChunk: (tx, sql, params, payloads) =>
        this.dialect.lineAppend.insertLastChunk(tx, sql, params, payloads, this.t.channel),
      texts: this.texts,
    };
    return this.#lineWriter;
  }

  get now(): string {
    return this.db.nowMs;
  }

  /** The stop step: pending NOTIFYs are dropped and every waiting accept and receive ends with `Closed`. */
  shutDown(): void {
    this.#notifier.close();
    this.wakeups.shutDown();
  }

  // ---- topology -----------------------------------------------------------------------------------------

  invalidateTopology(): void {
    this.#cache = null;
    // A reload already running may have read before the change the caller knows of: the next call starts anew.
    this.#loading = null;
    this.#generation += 1;
  }

  /** The cached topology, reloaded when older than `topologyCacheMs` (one reload at a time, shared by callers). */
  topology(): Promise<CachedTopology> {
    const cached = this.#cache;
    if (cached && Date.now() - cached.loadedAt < this.options.topologyCacheMs) return Promise.resolve(cached);
    // Concurrent publishers and settlements all find the cache stale at once; one reload serves them all.
    if (this.#loading) return this.#loading;
    const loading = this.#loadTopology(this.#generation).finally(() => {
      if (this.#loading === loading) this.#loading = null;
    });
    this.#loading = loading;
    return loading;
  }

  #loading: Promise<CachedTopology> | null = null;
  /** Bumped by every invalidation; a reload started before one does not fill the cache. */
  #generation = 0;

  async #loadTopology(generation: number): Promise<CachedTopology> {
    const inputs = await this.db.all(`SELECT name, kind FROM ${this.t.inputs}`);
    const routes = await this.db.all(`SELECT source, event_type_id, target FROM ${this.t.routes}`);
    const endpoints = inputs
      .filter((r) => r.kind === 'endpoint')
      .map((r) => String(r.name))
      .sort();
    const routeList: Route[] = routes
      .map((r) => ({
        source: String(r.source),
        eventTypeId: String(r.event_type_id),
        target: String(r.target),
      }))
      .sort((a, b) => routeKey(a).localeCompare(routeKey(b)));
    const names = new Set<string>([RESOLVER_INPUT]);
    for (const endpoint of endpoints) names.add(endpoint).add(replyInputOf(endpoint));
    const loaded = { topology: { endpoints, routes: routeList }, inputs: names, loadedAt: Date.now() };
    if (generation === this.#generation) this.#cache = loaded;
    return loaded;
  }

  async assertInput(input: string): Promise<void> {
    if ((await this.topology()).inputs.has(input)) return;
    this.invalidateTopology();
    if ((await this.topology()).inputs.has(input)) return;
    throw new TransportError(
      TransportErrorCode.EntityNotFound,
      `Input '${input}' does not exist in the topology`,
    );
  }

  /**
   * Routes and validates without writing, so the writes can go into one transaction afterwards. `project`: the
   * co-located projection may take the Resolver copies of plans due now (not for a `schedule`).
   */
  async planPublish(
    requests: readonly PublishRequest[],
    nowMs: number = Date.now(),
    project = true,
  ): Promise<PublishPlan[]> {
    if (requests.length === 0) return [];
    let cache = await this.topology();
    const plans: PublishPlan[] = [];
    for (const request of requests) {
      assertPublishSource(request.source);
      const deliveries: Delivery[] = [];
      for (const message of request.messages) {
        assertTransportMessage(message);
        let routed: Delivery[];
        try {
          routed = routeMessage(cache.topology, request.source, message);
        } catch (error) {
          // Another process may have added the endpoint or route since the topology was cached: look again once.
          if (!isTransportError(error)) throw error;
          this.invalidateTopology();
          cache = await this.topology();
          routed = routeMessage(cache.topology, request.source, message);
        }
        deliveries.push(...routed);
      }
      for (const delivery of deliveries) {
        if (cache.inputs.has(delivery.input)) continue;
        await this.assertInput(delivery.input);
        cache = await this.topology();
      }
      const dueAt = request.enqueueAt ? request.enqueueAt.getTime() : null;
      if (dueAt !== null && Number.isNaN(dueAt)) {
        throw new TransportError(
          TransportErrorCode.InvalidArgument,
          'PublishRequest.enqueueAt must be a valid Date',
        );
      }
      const due = dueAt !== null && dueAt > nowMs ? dueAt : null;
      if (due !== null || !project) plans.push({ deliveries, dueAt: due });
      else plans.push({ ...takeProjected(this.projection, deliveries), dueAt: null });
    }
    return plans;
  }

  /**
   * A publish of planned copies; returns the work keys to wake in this process. Plain plans take the dialect's
   * one statement when it has one; scheduled copies (their own table) and co-located Resolver copies (recorded in
   * the same transaction) take the general transactional path.
   */
  publish(plans: readonly PublishPlan[]): Promise<Set<string>> {
    const { publishPlain } = this.dialect.lineAppend;
    if (publishPlain !== undefined && plainPlans(plans))
      return publishPlain(
        this,
        plans.flatMap((plan) => plan.deliveries),
      );
    return this.db.transaction((tx) => this.writePlans(tx, plans));
  }

  /** Writes planned publishes in `tx`; returns the work keys (`workKey`) to wake after commit. */
  async writePlans(
    tx: SqlExecutor,
    plans: readonly PublishPlan[],
    own?: OwnSessionUpdate,
  ): Promise<Set<string>> {
    const now: Delivery[] = [];
    for (const plan of plans) {
      if (plan.dueAt === null) now.push(...plan.deliveries);
      else await this.writeScheduled(tx, uuidv7(), '', plan.dueAt, plan.deliveries);
    }
    const projected = plans.flatMap((plan) => plan.projected ?? []);
    const woken =
      now.length === 0 && !own ? new Set<string>() : await appendToLines(tx, this.lineWriter, now, own);
    return writeProjected(this.projection, tx, woken, projected);
  }

  async writeScheduled(
    tx: SqlExecutor,
    scheduleId: string,
    source: string,
    dueAt: number,
    deliveries: readonly Delivery[],
  ): Promise<void> {
    for (const { input, message } of deliveries) {
      await tx.run(
        `INSERT INTO ${this.t.scheduled} (schedule_id, source, input, session_id, message_id, correlation_id, headers, body, due_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          scheduleId,
          source,
          input,
          message.sessionId,
          message.messageId,
          message.correlationId,
          JSON.stringify(message.headers),
          message.body,
          dueAt,
        ],
      );
    }
  }

  /** After a commit: wakes one waiter in this process per work key, and has the co-located store notify. */
  wakeLocal(workKeys: Iterable<string>): void {
    this.wakeups.wakeFor(workKeys);
    if (this.projection !== null && workKeys instanceof CommittedWork)
      void this.projection.committed(this.db, workKeys.changedEndpoints);
  }

  // ---- scheduled promotion ---------------------------------------------------------------------------------

  /**
   * Moves due scheduled copies of `input` into their session lines (sequences are taken at promotion, so a
   * line's sequence always follows visibility order). Returns ms until the next due copy, or null if none.
   */
  async promoteDue(input: string): Promise<number | null> {
    const [row] = await this.db.all(
      `SELECT MIN(due_at) AS due, ${this.now} AS now FROM ${this.t.scheduled} WHERE input = ?`,
      [input],
      { prepared: true },
    );
    if (!row || row.due === null || row.due === undefined) return null;
    const due = Number(row.due);
    const now = Number(row.now);
    if (due > now) return due - now;
    const inputs = await this.db.transaction(async (tx) => {
      const rows = await tx.all(
        `DELETE FROM ${this.t.scheduled} WHERE id IN (
           SELECT id FROM ${this.t.scheduled} WHERE input = ? AND due_at <= ${this.now}
           ORDER BY due_at, id LIMIT 500${this.db.skipLocked})
         RETURNING *`,
        [input],
      );
      rows.sort((a, b) => Number(a.due_at) - Number(b.due_at) || Number(a.id) - Number(b.id));
      return this.writeDeliveries(tx, rows.map(deliveryFromRow));
    });
    this.wakeLocal(inputs);
    return 0;
  }

  async writeDeliveries(tx: SqlExecutor, deliveries: readonly Delivery[]): Promise<Set<string>> {
    if (deliveries.length === 0) return new Set();
    return appendToLines(tx, this.lineWriter, deliveries);
  }

  // ---- dead letters --------------------------------------------------------------------------------------

  async insertDeadLetter(
    tx: SqlExecutor,
    row: Row,
    reason: string,
    description: string | null,
  ): Promise<void> {
    await tx.run(
      `INSERT INTO ${this.t.deadLetters} (id, input, session_id, seq, message_id, correlation_id, headers, body, reason,
         description, delivery_count, enqueued_at, dead_lettered_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ${this.now})`,
      [
        uuidv7(),
        row.input,
        row.session_id,
        row.seq,
        row.message_id,
        row.correlation_id,
        row.headers,
        row.body,
        reason,
        description,
        row.delivery_count,
        row.enqueued_at,
      ],
    );
  }
}

export function deliveryFromRow(row: Row): Delivery {
  return {
    input: String(row.input),
    message: {
      messageId: String(row.message_id),
      sessionId: String(row.session_id),
      correlationId: row.correlation_id === null ? null : String(row.correlation_id),
      headers: JSON.parse(String(row.headers)),
      body: String(row.body),
    },
  };
}
