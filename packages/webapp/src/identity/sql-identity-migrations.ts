import type { Kysely } from 'kysely';
import type { WebAppSchema } from '../sql/webapp-migrations.js';
import { addMissingColumns } from '../sql/webapp-migrations.js';
import { createApiTokensTable } from './sql-api-tokens.js';
import type { IdentityDatabase } from './sql-identity-schema.js';
import { createLoginAttemptsTable } from './sql-login-attempts.js';

/** Columns added to the users table after its first release, with their definitions. */
const LATER_USER_COLUMNS = [
  ['disabled_at', 'varchar(40)'],
  ['must_change_password', 'integer not null default 0'],
] as const;

/**
 * The identity tables' migrations (journal `nimbus_identity_migrations`). `0001_baseline` is the schema the
 * WebApp created at open before the journal existed, written so that it accepts those tables: it creates what is
 * missing and adds the users' later columns to an older table.
 */
export const IDENTITY_SCHEMA: WebAppSchema = {
  what: 'WebApp identity tables',
  journal: 'nimbus_identity_migrations',
  migrations: [
    {
      name: '0001_baseline',
      async up(context) {
        const db = context.db as Kysely<IdentityDatabase>;
        await db.schema
          .createTable('nimbus_identity_users')
          .ifNotExists()
          .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
          .addColumn('email', 'varchar(320)', (c) => c.notNull().unique())
          .addColumn('display_name', 'varchar(200)')
          .addColumn('password_hash', 'varchar(512)', (c) => c.notNull())
          .addColumn('site_role', 'varchar(20)', (c) => c.notNull())
          .addColumn('failed_logins', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('locked_until', 'varchar(40)')
          .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
          .addColumn('updated_at', 'varchar(40)', (c) => c.notNull())
          .addColumn('disabled_at', 'varchar(40)')
          .addColumn('must_change_password', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        await addMissingColumns(context, 'nimbus_identity_users', LATER_USER_COLUMNS);
        await db.schema
          .createTable('nimbus_identity_endpoint_roles')
          .ifNotExists()
          .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
          .addColumn('endpoint_id', 'varchar(200)', (c) => c.notNull())
          .addColumn('role', 'varchar(20)', (c) => c.notNull())
          .addPrimaryKeyConstraint('nimbus_identity_endpoint_roles_pk', ['user_id', 'endpoint_id'])
          .execute();
        await db.schema
          .createTable('nimbus_identity_sessions')
          .ifNotExists()
          .addColumn('token_hash', 'varchar(128)', (c) => c.primaryKey())
          .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
          .addColumn('csrf_token', 'varchar(128)', (c) => c.notNull())
          .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
          .addColumn('expires_at', 'varchar(40)', (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('nimbus_identity_sessions_user')
          .ifNotExists()
          .on('nimbus_identity_sessions')
          .column('user_id')
          .execute();
        await createLoginAttemptsTable(db);
        await createApiTokensTable(db);
      },
    },
  ],
};
