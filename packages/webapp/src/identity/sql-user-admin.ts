import { type Kysely, sql } from 'kysely';
import type { IdentityDatabase } from './sql-identity-schema.js';
import type { SqlIdentityContext } from './sql-login-attempts.js';

/** Columns added to the users table after its first release, with their definitions. */
const LATER_USER_COLUMNS = [
  ['disabled_at', 'varchar(40)'],
  ['must_change_password', 'integer not null default 0'],
] as const;

/**
 * Adds the later columns to a users table created before them. Safe when several processes start at once:
 * PostgreSQL has `add column if not exists`, SQLite reports a duplicate column.
 */
export async function addMissingUserColumns(context: SqlIdentityContext): Promise<void> {
  if (context.dialect === 'postgres') {
    const table = sql.table(`${context.schema}.nimbus_identity_users`);
    for (const [name, definition] of LATER_USER_COLUMNS)
      await sql`alter table ${table} add column if not exists ${sql.raw(`${name} ${definition}`)}`.execute(
        context.root,
      );
    return;
  }
  const columns = await sql<{ name: string }>`pragma table_info(nimbus_identity_users)`.execute(context.root);
  for (const [name, definition] of LATER_USER_COLUMNS) {
    if (columns.rows.some((c) => c.name === name)) continue;
    try {
      await sql`alter table nimbus_identity_users add column ${sql.raw(`${name} ${definition}`)}`.execute(
        context.root,
      );
    } catch (error) {
      if (!/duplicate column/i.test((error as Error).message)) throw error;
    }
  }
}

/** The administration half of the SQL identity store: disable and delete accounts. */
export function sqlUserAdmin(db: Kysely<IdentityDatabase>) {
  return {
    setDisabled: async (userId: string, disabledAt: Date | null, at: Date) => {
      await db
        .updateTable('nimbus_identity_users')
        .set({ disabled_at: disabledAt?.toISOString() ?? null, updated_at: at.toISOString() })
        .where('id', '=', userId)
        .execute();
    },
    deleteUser: (userId: string) =>
      db.transaction().execute(async (trx) => {
        await trx.deleteFrom('nimbus_identity_endpoint_roles').where('user_id', '=', userId).execute();
        await trx.deleteFrom('nimbus_identity_sessions').where('user_id', '=', userId).execute();
        await trx.deleteFrom('nimbus_identity_api_tokens').where('user_id', '=', userId).execute();
        const result = await trx
          .deleteFrom('nimbus_identity_users')
          .where('id', '=', userId)
          .executeTakeFirst();
        return Number(result.numDeletedRows) > 0;
      }),
  };
}
