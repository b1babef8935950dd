import type { TransportMigration } from './transport-migration.js';

/**
 * Console control state that every host reads: a row per input that was paused or given monitoring thresholds,
 * and the latest result of each custom check an endpoint's host reports. Times are epoch milliseconds.
 */
export const inputControlMigration: TransportMigration = {
  name: '0002_input_control',
  statements({ types, t }) {
    const { bigint } = types;
    return [
      `CREATE TABLE IF NOT EXISTS ${t.inputControl} (input_key text PRIMARY KEY, input text NOT NULL,
         paused integer NOT NULL DEFAULT 0, changed_by text, changed_at ${bigint},
         max_backlog ${bigint}, max_critical_time_ms ${bigint})`,
      `CREATE TABLE IF NOT EXISTS ${t.customChecks} (endpoint_id text NOT NULL, name text NOT NULL, healthy integer NOT NULL,
         reason text, checked_at ${bigint} NOT NULL, PRIMARY KEY (endpoint_id, name))`,
    ];
  },
};
