import type { SqlDialect, SqlExecutor } from '@nimbus/sql';

/**
 * The DDL the WebApp ran at open before its tables had a journal (create-if-missing), in the oldest shape each
 * table shipped with, plus one row per store: what an existing database holds when it meets the journal.
 */
export async function createLegacyWebAppTables(
  tx: SqlExecutor,
  dialect: SqlDialect,
  schema: string | null,
): Promise<void> {
  const big = dialect === 'postgres' ? 'bigint' : 'integer';
  const t = (name: string) => (schema === null ? `"${name}"` : `"${schema}"."${name}"`);
  if (schema !== null) await tx.run(`create schema if not exists "${schema}"`);
  const statements = [
    // identity: the users table before accounts could be disabled or forced to change their password
    `create table ${t('nimbus_identity_users')} (id varchar(64) primary key, email varchar(320) not null unique,
      display_name varchar(200), password_hash varchar(512) not null, site_role varchar(20) not null,
      failed_logins integer not null default 0, locked_until varchar(40), created_at varchar(40) not null,
      updated_at varchar(40) not null)`,
    `create table ${t('nimbus_identity_endpoint_roles')} (user_id varchar(64) not null, endpoint_id varchar(200) not null,
      role varchar(20) not null, constraint nimbus_identity_endpoint_roles_pk primary key (user_id, endpoint_id))`,
    `create table ${t('nimbus_identity_sessions')} (token_hash varchar(128) primary key, user_id varchar(64) not null,
      csrf_token varchar(128) not null, created_at varchar(40) not null, expires_at varchar(40) not null)`,
    `insert into ${t('nimbus_identity_users')} values ('u1', 'old@example.test', null, 'scrypt$1$1$1$a$b', 'Owner', 0,
      null, '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z')`,
    // alerts
    `create table ${t('nimbus_alert_signatures')} (endpoint_id text not null, signature text not null,
      first_seen ${big} not null, last_seen ${big} not null,
      constraint nimbus_alert_signatures_pk primary key (endpoint_id, signature))`,
    `create table ${t('nimbus_alert_deliveries')} (id text primary key, subscription_id text not null,
      alert_key text not null, trigger text not null, endpoint_id text not null, payload_json text not null,
      status text not null, attempts integer not null, next_attempt_at ${big} not null, lease_until ${big} not null,
      lease_owner text, last_error text, created_at ${big} not null, delivered_at ${big},
      constraint nimbus_alert_deliveries_claim unique (subscription_id, alert_key))`,
    `insert into ${t('nimbus_alert_signatures')} values ('Erp', 'sig-1', 5, 5)`,
    // bulk jobs: the jobs table before filter jobs and resuming
    `create table ${t('nimbus_bulk_jobs')} (job_id text primary key, action text not null, endpoint_id text not null,
      total integer not null, processed integer not null, succeeded integer not null, failed integer not null,
      errors_json text not null, done integer not null, owner text not null, lease_until ${big} not null,
      created_at ${big} not null)`,
    `insert into ${t('nimbus_bulk_jobs')} values ('old-1', 'skip', 'Erp', 2, 2, 1, 1, '[]', 1, 'gone', 0, 5)`,
  ];
  for (const statement of statements) await tx.run(statement);
}
