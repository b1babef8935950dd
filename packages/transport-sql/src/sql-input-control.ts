import {
  type CustomCheckResult,
  type InputControl,
  type InputState,
  type InputThresholds,
  MAX_CHECK_NAME_LENGTH,
  MAX_CHECK_REASON_LENGTH,
  type StoredCustomCheck,
} from '@nimbus/core';
import type { Row, SqlDatabase } from './sql/database.js';
import type { Tables } from './tables.js';

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

function stateFromRow(row: Row): InputState {
  const changedAt = num(row.changed_at);
  return {
    input: String(row.input),
    paused: Number(row.paused) === 1,
    changedBy: (row.changed_by as string | null) ?? null,
    changedAt: changedAt === null ? null : new Date(changedAt),
    maxBacklog: num(row.max_backlog),
    maxCriticalTimeMs: num(row.max_critical_time_ms),
  };
}

/**
 * `InputControl` in the transport's own database, so a pause set by the console reaches every host of the
 * input (in any process) and outlasts restarts. Inputs are keyed case-insensitively, as the routing is.
 */
export class SqlInputControl implements InputControl {
  constructor(
    private readonly db: SqlDatabase,
    private readonly t: Pick<Tables, 'inputControl' | 'customChecks'>,
  ) {}

  async inputStates(): Promise<InputState[]> {
    const rows = await this.db.all(`SELECT * FROM ${this.t.inputControl} ORDER BY input_key`);
    return rows.map(stateFromRow);
  }

  async pausedInputs(): Promise<ReadonlySet<string>> {
    const rows = await this.db.all(`SELECT input FROM ${this.t.inputControl} WHERE paused = 1`, [], {
      prepared: true,
    });
    return new Set(rows.map((r) => String(r.input)));
  }

  async setPaused(input: string, change: { readonly paused: boolean; readonly by: string }): Promise<void> {
    await this.db.run(
      `INSERT INTO ${this.t.inputControl} (input_key, input, paused, changed_by, changed_at)
       VALUES (?, ?, ?, ?, ${this.db.nowMs})
       ON CONFLICT (input_key) DO UPDATE SET input = excluded.input, paused = excluded.paused,
         changed_by = excluded.changed_by, changed_at = excluded.changed_at`,
      [input.toLowerCase(), input, change.paused ? 1 : 0, change.by],
    );
  }

  async setThresholds(input: string, thresholds: InputThresholds): Promise<void> {
    await this.db.run(
      `INSERT INTO ${this.t.inputControl} (input_key, input, max_backlog, max_critical_time_ms)
       VALUES (?, ?, ?, ?)
       ON CONFLICT (input_key) DO UPDATE SET max_backlog = excluded.max_backlog,
         max_critical_time_ms = excluded.max_critical_time_ms`,
      [input.toLowerCase(), input, thresholds.maxBacklog, thresholds.maxCriticalTimeMs],
    );
  }

  async reportChecks(endpointId: string, results: readonly CustomCheckResult[]): Promise<void> {
    if (results.length === 0) return;
    await this.db.transaction(async (tx) => {
      for (const r of results)
        await tx.run(
          `INSERT INTO ${this.t.customChecks} (endpoint_id, name, healthy, reason, checked_at)
           VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (endpoint_id, name) DO UPDATE SET healthy = excluded.healthy, reason = excluded.reason,
             checked_at = excluded.checked_at`,
          [
            endpointId,
            r.name.slice(0, MAX_CHECK_NAME_LENGTH),
            r.healthy ? 1 : 0,
            r.reason === null ? null : r.reason.slice(0, MAX_CHECK_REASON_LENGTH),
            r.checkedAt.getTime(),
          ],
        );
    });
  }

  async customChecks(): Promise<StoredCustomCheck[]> {
    const rows = await this.db.all(`SELECT * FROM ${this.t.customChecks} ORDER BY endpoint_id, name`);
    return rows.map((row) => ({
      endpointId: String(row.endpoint_id),
      name: String(row.name),
      healthy: Number(row.healthy) === 1,
      reason: (row.reason as string | null) ?? null,
      checkedAt: new Date(Number(row.checked_at)),
    }));
  }
}
