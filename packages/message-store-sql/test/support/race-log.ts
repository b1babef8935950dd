import { sql } from 'kysely';
import type { SqlDialect } from '../../src/dialect/sql-dialect.js';
import { type LoggedChange, type RowState, rowState } from './guard-race.js';

/*
 * Test-only triggers that append every committed change of a resolver row to `race_log`, in commit
 * order: SQLite runs triggers inside the single writer's transaction; on PostgreSQL a row's updates
 * happen under its row lock, so the log sequence orders them as they committed.
 */

const STATE = (row: 'new' | 'old') =>
  `'status', ${row}.status, 'messageType', ${row}.message_type, 'parentMessageId', ${row}.parent_message_id, 'lastMessageId', ${row}.last_message_id, 'tag', ${row}.to_address`;

export async function installRaceLog(dialect: SqlDialect, table: string): Promise<void> {
  const db = dialect.db;
  if (dialect.name === 'sqlite') {
    await sql
      .raw(
        'create table race_log (seq integer primary key autoincrement, event_id text not null, old_json text, new_json text not null)',
      )
      .execute(db);
    await sql
      .raw(`create trigger race_log_insert after insert on ${table} begin
      insert into race_log (event_id, old_json, new_json) values (new.event_id, null, json_object(${STATE('new')})); end`)
      .execute(db);
    await sql
      .raw(`create trigger race_log_update after update on ${table} begin
      insert into race_log (event_id, old_json, new_json) values (new.event_id, json_object(${STATE('old')}), json_object(${STATE('new')})); end`)
      .execute(db);
    return;
  }
  await sql
    .raw(
      'create table race_log (seq bigserial primary key, event_id text not null, old_json jsonb, new_json jsonb not null)',
    )
    .execute(db);
  await sql
    .raw(`create function race_log_write() returns trigger language plpgsql as $$ begin
      insert into race_log (event_id, old_json, new_json) values (new.event_id,
        case when tg_op = 'UPDATE' then jsonb_build_object(${STATE('old')}) end, jsonb_build_object(${STATE('new')}));
      return new; end $$`)
    .execute(db);
  await sql
    .raw(
      `create trigger race_log_trigger after insert or update on ${table} for each row execute function race_log_write()`,
    )
    .execute(db);
}

export async function readRaceLog(dialect: SqlDialect): Promise<LoggedChange[]> {
  const result = await sql<{
    event_id: string;
    old_json: unknown;
    new_json: unknown;
  }>`select event_id, old_json, new_json from race_log order by seq`.execute(dialect.db);
  const parse = (value: unknown): RowState | null =>
    value === null
      ? null
      : rowState((typeof value === 'string' ? JSON.parse(value) : value) as Record<string, unknown>);
  return result.rows.map((r) => ({ eventId: r.event_id, old: parse(r.old_json), next: parse(r.new_json)! }));
}

export async function readFinalRows(dialect: SqlDialect): Promise<Map<string, RowState>> {
  const rows = await dialect.db
    .selectFrom('unresolved_events')
    .select(['event_id', 'status', 'message_type', 'parent_message_id', 'last_message_id', 'to_address'])
    .execute();
  return new Map(
    rows.map((r) => [
      r.event_id,
      rowState({
        status: r.status,
        messageType: r.message_type,
        parentMessageId: r.parent_message_id,
        lastMessageId: r.last_message_id,
        tag: r.to_address,
      }),
    ]),
  );
}
