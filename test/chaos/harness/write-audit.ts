import { join } from 'node:path';
import { openPostgresClient, openSqliteDatabase } from '@nimbus/sql';
import type { AuditedWrite } from '../write-order.js';

/** Where the product keeps its tables (the CLI's defaults, which the suite does not change). */
const PG = { transport: '"nimbus_transport"."messages"', history: '"nimbus"."messages"' } as const;
const PG_STATUS = '"nimbus"."unresolved_events"';
const SQLITE = {
  transport: '"nimbus_transport_messages"',
  history: '"nimbus_messages"',
  status: '"nimbus_unresolved_events"',
} as const;

export type AuditedBackend =
  | { readonly dialect: 'postgres'; readonly url: string }
  /** `colocated`: the store's tables live in transport.db (`NIMBUS_TRACKING=colocated`), else in store.db. */
  | { readonly dialect: 'sqlite'; readonly dataDir: string; readonly colocated?: boolean };

/**
 * A write log the product does not know about, fed by triggers the suite adds to its own database after
 * `nimbus store migrate`: every message put on the Resolver input (with its per-session sequence), every history
 * record the Resolver writes and every status write of the store, each numbered in the order it happened. The
 * final store hides a Resolver that wrote a session's outcomes out of order (the stale-write guard keeps the later
 * outcome); this log shows it (issue #12 point 5).
 *
 * On PostgreSQL it also injects transient store failures: a history insert (written only by the Resolver) fails
 * with `serialization_failure` (SQLSTATE 40001, retryable) at the given rate, while the transport keeps working,
 * the one situation in which a Resolver that rescheduled instead of retrying in place would reorder.
 */
export class WriteAudit {
  constructor(
    readonly backend: AuditedBackend,
    readonly storeFailureRate = 0,
  ) {}

  async install(): Promise<void> {
    if (this.backend.dialect === 'postgres')
      await this.#withPg((c) => c.query(postgresAudit(this.storeFailureRate)));
    else {
      const { transport, store } = this.#sqliteFiles();
      if (store === undefined)
        this.#withSqlite(transport, (db) => db.exec(sqliteAudit(['enqueue', 'store'])));
      else {
        this.#withSqlite(transport, (db) => db.exec(sqliteAudit(['enqueue'])));
        this.#withSqlite(store, (db) => db.exec(sqliteAudit(['store'])));
      }
    }
  }

  /** Every audited write, in the order it happened within its database. */
  async writes(): Promise<AuditedWrite[]> {
    const select = `SELECT position, kind, session_id, event_id, message_id, seq, message_type, status, endpoint_id
      FROM ${this.backend.dialect === 'postgres' ? 'chaos_audit.writes' : 'chaos_audit_writes'} ORDER BY position`;
    const rows =
      this.backend.dialect === 'postgres'
        ? await this.#withPg(async (c) => (await c.query(select)).rows)
        : Object.values(this.#sqliteFiles())
            .filter((file) => file !== undefined)
            .flatMap((file) => this.#withSqlite(file, (db) => db.prepare(select).all()));
    return (rows as Record<string, unknown>[]).map((r) => ({
      position: Number(r.position),
      kind: r.kind as AuditedWrite['kind'],
      sessionId: String(r.session_id),
      eventId: String(r.event_id),
      messageId: String(r.message_id),
      seq: r.seq === null ? null : Number(r.seq),
      messageType: r.message_type === null ? null : String(r.message_type),
      status: r.status === null ? null : String(r.status),
      endpointId: r.endpoint_id === null ? null : String(r.endpoint_id),
    }));
  }

  /** How many store failures were injected (PostgreSQL; 0 on SQLite). */
  async injectedFailures(): Promise<number> {
    if (this.backend.dialect !== 'postgres') return 0;
    return this.#withPg(async (c) => {
      const { rows } = await c.query('SELECT last_value, is_called FROM chaos_audit.injected_failures');
      return rows[0].is_called ? Number(rows[0].last_value) : 0;
    });
  }

  async #withPg<T>(work: (client: ReturnType<typeof openPostgresClient>) => Promise<T>): Promise<T> {
    if (this.backend.dialect !== 'postgres') throw new Error('not a PostgreSQL backend');
    const client = openPostgresClient({ connectionString: this.backend.url, applicationName: 'chaos-audit' });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  #withSqlite<T>(file: string, work: (db: ReturnType<typeof openSqliteDatabase>) => T): T {
    const db = openSqliteDatabase(file, { createDirectory: false });
    try {
      return work(db);
    } finally {
      db.close();
    }
  }

  /** The audited files; co-located, one file holds the transport's and the store's tables (`store` undefined). */
  #sqliteFiles(): { transport: string; store: string | undefined } {
    if (this.backend.dialect !== 'sqlite') throw new Error('not a SQLite backend');
    const { dataDir, colocated } = this.backend;
    return {
      transport: join(dataDir, 'transport.db'),
      store: colocated ? undefined : join(dataDir, 'store.db'),
    };
  }
}

const COLUMNS = 'kind, session_id, event_id, message_id, seq, message_type, status, endpoint_id';

function postgresAudit(failureRate: number): string {
  const rate = Number(failureRate.toFixed(4));
  const record = (name: string, values: string) => `
    CREATE FUNCTION chaos_audit.${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
      INSERT INTO chaos_audit.writes (${COLUMNS}) VALUES (${values});
      RETURN NULL;
    END $$;`;
  return `
    CREATE SCHEMA chaos_audit;
    CREATE TABLE chaos_audit.writes (position bigserial PRIMARY KEY, kind text NOT NULL, session_id text NOT NULL,
      event_id text NOT NULL, message_id text NOT NULL, seq bigint, message_type text, status text, endpoint_id text);
    CREATE SEQUENCE chaos_audit.injected_failures;
    ${record('on_enqueue', `'enqueue', NEW.session_id, NEW.headers::jsonb ->> 'EventId', NEW.message_id, NEW.seq, NEW.headers::jsonb ->> 'MessageType', NULL, NULL`)}
    ${record('on_history', `'history', NEW.session_id, NEW.event_id, NEW.message_id, NULL, NEW.message_type, NULL, NEW.endpoint_id`)}
    ${record('on_status', `'status', NEW.session_id, NEW.event_id, coalesce(NEW.last_message_id, ''), NULL, NEW.message_type, NEW.status, NEW.endpoint_id`)}
    CREATE FUNCTION chaos_audit.inject_failure() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
      IF random() < ${rate} THEN
        PERFORM nextval('chaos_audit.injected_failures');
        RAISE EXCEPTION 'chaos: injected transient store failure' USING ERRCODE = 'serialization_failure';
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER chaos_enqueue AFTER INSERT ON ${PG.transport} FOR EACH ROW
      WHEN (NEW.input = 'Resolver' AND NEW.headers::jsonb ? 'EventId') EXECUTE FUNCTION chaos_audit.on_enqueue();
    CREATE TRIGGER chaos_history AFTER INSERT ON ${PG.history} FOR EACH ROW EXECUTE FUNCTION chaos_audit.on_history();
    CREATE TRIGGER chaos_status AFTER INSERT OR UPDATE ON ${PG_STATUS} FOR EACH ROW EXECUTE FUNCTION chaos_audit.on_status();
    CREATE TRIGGER chaos_inject BEFORE INSERT ON ${PG.history} FOR EACH STATEMENT EXECUTE FUNCTION chaos_audit.inject_failure();`;
}

/**
 * SQLite triggers write only to their own database file, so each file gets its own log with the triggers of the
 * tables it holds (both sets in transport.db when the store is co-located).
 */
function sqliteAudit(parts: readonly ('enqueue' | 'store')[]): string {
  const table = `CREATE TABLE chaos_audit_writes (position INTEGER PRIMARY KEY AUTOINCREMENT, kind text NOT NULL,
    session_id text NOT NULL, event_id text NOT NULL, message_id text NOT NULL, seq INTEGER, message_type text,
    status text, endpoint_id text);`;
  const insert = (values: string) => `INSERT INTO chaos_audit_writes (${COLUMNS}) VALUES (${values});`;
  const enqueue = `
      CREATE TRIGGER chaos_enqueue AFTER INSERT ON ${SQLITE.transport}
      WHEN NEW.input = 'Resolver' AND json_extract(NEW.headers, '$.EventId') IS NOT NULL BEGIN
        ${insert(`'enqueue', NEW.session_id, json_extract(NEW.headers, '$.EventId'), NEW.message_id, NEW.seq, json_extract(NEW.headers, '$.MessageType'), NULL, NULL`)}
      END;`;
  const status = (event: 'INSERT' | 'UPDATE') => `
    CREATE TRIGGER chaos_status_${event.toLowerCase()} AFTER ${event} ON ${SQLITE.status} BEGIN
      ${insert(`'status', NEW.session_id, NEW.event_id, coalesce(NEW.last_message_id, ''), NULL, NEW.message_type, NEW.status, NEW.endpoint_id`)}
    END;`;
  const store = `
    CREATE TRIGGER chaos_history AFTER INSERT ON ${SQLITE.history} BEGIN
      ${insert(`'history', NEW.session_id, NEW.event_id, NEW.message_id, NULL, NEW.message_type, NULL, NEW.endpoint_id`)}
    END;
    ${status('INSERT')}${status('UPDATE')}`;
  return `${table}${parts.includes('enqueue') ? enqueue : ''}${parts.includes('store') ? store : ''}`;
}
