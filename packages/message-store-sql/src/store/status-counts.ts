import type { Logger } from '@nimbus/core';
import { sql } from 'kysely';
import type { StoreDb } from '../dialect/sql-dialect.js';
import type { StoreContext } from './store-context.js';

/** Deltas moved into the counters per fold statement. */
const FOLD_LIMIT = 10_000;
/** One store instance folds at most this often after its own writes. */
const FOLD_INTERVAL_MS = 1_000;

/**
 * Live rows per status of one endpoint: the maintained counters plus the deltas not folded into them yet
 * (PostgreSQL; empty on SQLite). Two index reads, whatever the size of the table.
 */
export async function readStatusCounts(db: StoreDb, endpointId: string): Promise<Map<string, number>> {
  const { rows } = await sql<{ status: string; live_count: number | string }>`
    select status, sum(n) as live_count from (
      select status, live_count as n from ${sql.table('endpoint_status_counts')} where endpoint_id = ${endpointId}
      union all
      select status, delta as n from ${sql.table('endpoint_status_count_deltas')} where endpoint_id = ${endpointId}
    ) counted group by status`.execute(db);
  return new Map(rows.map((row) => [row.status, Number(row.live_count)]));
}

/**
 * PostgreSQL: moves up to `FOLD_LIMIT` deltas into the counters in ONE statement, in its own transaction.
 * Concurrent folds never wait on each other's deltas (`SKIP LOCKED`), and each updates the counter rows in
 * key order, so they cannot deadlock; writers never touch the counters. Returns how many deltas it moved.
 */
export async function foldStatusCountDeltas(db: StoreDb): Promise<number> {
  const deltas = sql.table('endpoint_status_count_deltas');
  const { rows } = await sql<{ moved: number | string }>`
    with moved as (
      delete from ${deltas} where id = any(array(
        select id from ${deltas} order by id limit ${FOLD_LIMIT} for update skip locked))
      returning endpoint_id, status, delta
    ), applied as (
      insert into ${sql.table('endpoint_status_counts')} as c (endpoint_id, status, live_count)
      select endpoint_id, status, sum(delta) from moved group by endpoint_id, status having sum(delta) <> 0
      order by endpoint_id, status
      on conflict (endpoint_id, status) do update set live_count = c.live_count + excluded.live_count
      returning 1
    )
    select (select count(*) from moved) as moved, (select count(*) from applied) as applied`.execute(db);
  return Number(rows[0]?.moved ?? 0);
}

/** Folds every delta there is now (several statements when there are many). */
export async function foldAllStatusCountDeltas(db: StoreDb): Promise<void> {
  let moved: number;
  do moved = await foldStatusCountDeltas(db);
  while (moved >= FOLD_LIMIT);
}

/**
 * Keeps the deltas few while a store writes: after a committed write, at most once per `FOLD_INTERVAL_MS`,
 * folds them (one statement). A failed fold is logged; the write it follows has succeeded, and the next fold
 * picks the deltas up. PostgreSQL only (SQLite keeps no deltas).
 */
export class DeltaFolding {
  #lastFold = Number.NEGATIVE_INFINITY;
  #running: Promise<void> | null = null;

  constructor(
    private readonly clock: { now(): number },
    private readonly logger: Logger,
  ) {}

  async afterCommit(db: StoreDb): Promise<void> {
    if (this.#running) return;
    const now = this.clock.now();
    if (now - this.#lastFold < FOLD_INTERVAL_MS) return;
    this.#lastFold = now;
    this.#running = foldStatusCountDeltas(db).then(
      () => undefined,
      (error: unknown) =>
        this.logger.warn(
          { error: error instanceof Error ? error.message : String(error) },
          'message store: folding the status-count deltas failed; the next write folds them',
        ),
    );
    try {
      await this.#running;
    } finally {
      this.#running = null;
    }
  }
}

/** The store's own folding after its writes (PostgreSQL). */
export class StatusCountFolding {
  readonly #folding: DeltaFolding;

  constructor(private readonly context: StoreContext) {
    this.#folding = new DeltaFolding(context.clock, context.logger);
  }

  async afterCommit(): Promise<void> {
    if (this.context.dialect.name === 'postgres') await this.#folding.afterCommit(this.context.dialect.db);
  }
}
