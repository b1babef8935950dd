import { index, type TransportMigration } from './transport-migration.js';

/**
 * The tables as they were before the schema was versioned, hence `IF NOT EXISTS`: a database created by an
 * older release adopts the journal without change. Times are epoch milliseconds from the database clock;
 * headers are JSON text. `sessions.last_seq` hands out per-session sequences and `message_count` lets
 * accept-next find sessions with work without scanning idle ones; both change under the session row's lock.
 */
export const initialMigration: TransportMigration = {
  name: '0001_initial',
  statements({ types, t }) {
    const { bigint, identity } = types;
    return [
      `CREATE TABLE IF NOT EXISTS ${t.inputs} (name text PRIMARY KEY, kind text NOT NULL)`,
      `CREATE TABLE IF NOT EXISTS ${t.routes} (source text NOT NULL, event_type_id text NOT NULL, target text NOT NULL,
         PRIMARY KEY (source, event_type_id, target))`,
      `CREATE TABLE IF NOT EXISTS ${t.sessions} (input text NOT NULL, session_id text NOT NULL, state text,
         locked_until ${bigint} NOT NULL DEFAULT 0, lock_token text, last_seq ${bigint} NOT NULL DEFAULT 0,
         message_count ${bigint} NOT NULL DEFAULT 0, PRIMARY KEY (input, session_id))`,
      `CREATE INDEX IF NOT EXISTS ${index(t.sessions, 'ready')} ON ${t.sessions} (input, locked_until)
         WHERE message_count > 0`,
      `CREATE TABLE IF NOT EXISTS ${t.messages} (id ${identity}, input text NOT NULL, session_id text NOT NULL,
         seq ${bigint} NOT NULL, message_id text NOT NULL, correlation_id text, headers text NOT NULL, body text NOT NULL,
         enqueued_at ${bigint} NOT NULL, visible_at ${bigint} NOT NULL, delivery_count integer NOT NULL DEFAULT 0,
         held_by text)`,
      `CREATE UNIQUE INDEX IF NOT EXISTS ${index(t.messages, 'line')} ON ${t.messages} (input, session_id, seq)`,
      `CREATE TABLE IF NOT EXISTS ${t.scheduled} (id ${identity}, schedule_id text NOT NULL, source text NOT NULL,
         input text NOT NULL, session_id text NOT NULL, message_id text NOT NULL, correlation_id text,
         headers text NOT NULL, body text NOT NULL, due_at ${bigint} NOT NULL)`,
      `CREATE INDEX IF NOT EXISTS ${index(t.scheduled, 'due')} ON ${t.scheduled} (input, due_at)`,
      `CREATE INDEX IF NOT EXISTS ${index(t.scheduled, 'handle')} ON ${t.scheduled} (schedule_id)`,
      `CREATE TABLE IF NOT EXISTS ${t.parked} (input text NOT NULL, session_id text NOT NULL, seq ${bigint} NOT NULL,
         message_id text NOT NULL, correlation_id text, headers text NOT NULL, body text NOT NULL,
         parked_at ${bigint} NOT NULL, PRIMARY KEY (input, session_id, seq))`,
      `CREATE TABLE IF NOT EXISTS ${t.deadLetters} (id text PRIMARY KEY, input text NOT NULL, session_id text NOT NULL,
         seq ${bigint} NOT NULL, message_id text NOT NULL, correlation_id text, headers text NOT NULL, body text NOT NULL,
         reason text NOT NULL, description text, delivery_count integer NOT NULL, enqueued_at ${bigint} NOT NULL,
         dead_lettered_at ${bigint} NOT NULL)`,
      `CREATE INDEX IF NOT EXISTS ${index(t.deadLetters, 'input')} ON ${t.deadLetters} (input, dead_lettered_at)`,
    ];
  },
};
