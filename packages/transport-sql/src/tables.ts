import { sqlName } from '@nimbus/sql';

/** Fully qualified table names: `"schema"."messages"` on PostgreSQL, `"prefix_messages"` on SQLite. */
export interface Tables {
  readonly inputs: string;
  readonly routes: string;
  readonly sessions: string;
  readonly messages: string;
  readonly scheduled: string;
  readonly parked: string;
  readonly deadLetters: string;
  /** Paused inputs and thresholds (`InputControl`). */
  readonly inputControl: string;
  readonly customChecks: string;
  /** The migration journal. */
  readonly journal: string;
  /** LISTEN/NOTIFY channel (PostgreSQL). */
  readonly channel: string;
}

/**
 * The tables in `namespace`, named by `qualify` (the dialect's: schema-qualified or prefixed). `option` names the
 * connection option the namespace came from, for the error about a bad one.
 */
export function tableNames(
  namespace: string,
  option: 'schema' | 'tablePrefix',
  qualify: (table: string) => string,
): Tables {
  sqlName(namespace, `SQL transport ${option}`);
  return {
    inputs: qualify('inputs'),
    routes: qualify('routes'),
    sessions: qualify('sessions'),
    messages: qualify('messages'),
    scheduled: qualify('scheduled'),
    parked: qualify('parked'),
    deadLetters: qualify('dead_letters'),
    inputControl: qualify('input_control'),
    customChecks: qualify('custom_checks'),
    journal: qualify('schema_migrations'),
    channel: `${namespace}_wakeup`,
  };
}
