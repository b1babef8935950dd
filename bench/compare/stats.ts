// Small helpers shared by the comparison bench: rates, medians, percentiles, formatting, statement counting.
import Database from 'better-sqlite3';
import pg from 'pg';

export function rate(count: number, ms: number): number {
  return Math.round((count / Math.max(1, ms)) * 1000);
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export function ms(value: number): string {
  if (Number.isNaN(value)) return 'n/a';
  return value >= 10_000 ? `${(value / 1000).toFixed(1)} s` : `${Math.round(value)} ms`;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Waits until `done()` is true, checking every `everyMs`; throws naming `what` after `timeoutMs`. */
export async function until(
  done: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs: number,
  everyMs = 20,
) {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

// ---- SQL statements sent by this process (BENCH_COUNT_STATEMENTS=1) --------------------------------------------

const counts = new Map<string, number>();
let installed = false;
let commits = 0;
/** Connections (pg clients, SQLite handles) inside BEGIN … COMMIT/ROLLBACK. */
const inTransaction = new WeakSet<object>();
const WRITES = new Set(['INSERT', 'UPDATE', 'DELETE', 'WITH']);

/** Counts the statement by verb, and the commits: each COMMIT, and each write sent outside a transaction. */
function count(sql: unknown, connection: object): void {
  const text = typeof sql === 'string' ? sql : String((sql as { text?: unknown } | null)?.text ?? '');
  const verb = (text.trim().match(/^[A-Za-z]+/)?.[0] ?? '?').toUpperCase();
  counts.set(verb, (counts.get(verb) ?? 0) + 1);
  if (verb === 'BEGIN') inTransaction.add(connection);
  else if (verb === 'COMMIT' || verb === 'ROLLBACK' || verb === 'END') {
    if (verb !== 'ROLLBACK') commits += 1;
    inTransaction.delete(connection);
  } else if (WRITES.has(verb) && !inTransaction.has(connection)) commits += 1;
}

/** Counts every statement this process sends through `pg` or `better-sqlite3`, by leading keyword. */
export function countStatements(): void {
  if (installed) return;
  installed = true;
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: object, ...args: unknown[]) {
    count(args[0], this);
    return query.apply(this, args);
  } as typeof pg.Client.prototype.query;
  const probe = new Database(':memory:');
  const statementProto = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<string, unknown>;
  probe.close();
  for (const method of ['run', 'all', 'get', 'iterate']) {
    const original = statementProto[method] as (...args: unknown[]) => unknown;
    statementProto[method] = function (this: { source: string; database: object }, ...args: unknown[]) {
      count(this.source, this.database);
      return original.apply(this, args);
    };
  }
}

export function resetStatements(): void {
  counts.clear();
  commits = 0;
}

/** "N statements/event (SELECT a, UPDATE b, …)" since the last reset; empty when counting is off. */
export function statementReport(events: number): string {
  if (!installed) return '';
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  const parts = [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 6)
    .map(([verb, n]) => `${verb} ${(n / events).toFixed(2)}`);
  const perEvent = (n: number) => (n / Math.max(1, events)).toFixed(2);
  const line = `${perEvent(total)} statements/event, ${perEvent(commits)} commits/event in this process (${parts.join(', ')})`;
  resetStatements();
  return line;
}
