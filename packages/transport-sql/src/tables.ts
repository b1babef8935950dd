import type { SqlDialect } from '@nimbus/sql';

/** Fully qualified table names: `"schema"."messages"` on PostgreSQL, `"prefix_messages"` on SQLite. */
export interface Tables {
  readonly inputs: string;
  readonly routes: string;
  readonly sessions: string;
  readonly messages: string;
  readonly scheduled: string;
  readonly parked: string;
  readonly deadLetters: string;
  /** The migration journal. */
  readonly journal: string;
  /** LISTEN/NOTIFY channel (PostgreSQL). */
  readonly channel: string;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,40}$/;

export function tableNames(dialect: SqlDialect, namespace: string): Tables {
  if (!IDENTIFIER.test(namespace)) {
    throw new RangeError(
      `SQL transport ${dialect === 'postgres' ? 'schema' : 'tablePrefix'} '${namespace}' must match ${IDENTIFIER}`,
    );
  }
  const name = (table: string) =>
    dialect === 'postgres' ? `"${namespace}"."${table}"` : `"${namespace}${table}"`;
  return {
    inputs: name('inputs'),
    routes: name('routes'),
    sessions: name('sessions'),
    messages: name('messages'),
    scheduled: name('scheduled'),
    parked: name('parked'),
    deadLetters: name('dead_letters'),
    journal: name('schema_migrations'),
    channel: `${namespace}_wakeup`,
  };
}
