import { type Kysely, sql } from 'kysely';
import type { IdentityDatabase } from './sql-identity-schema.js';
import type { SqlIdentityContext } from './sql-login-attempts.js';

/**
 * Adds `disabled_at` to a users table created before accounts could be disabled. Safe when several
 * processes start at once: PostgreSQL has `add column if not exists`, SQLite reports a duplicate column.
 */
export async function addDisabledColumn(context: SqlIdentityContext): Promise<void> {
  if (context.dialect === 'postgres') {
    const table = sql.table(`${context.schema}.nimbus_identity_users`);
    await sql`alter table ${table} add column if not exists disabled_at varchar(40)`.execute(context.root);
    return;
  }
  const columns = await sql<{ name: string }>`pragma table_info(nimbus_identity_users)`.execute(context.root);
  if (columns.rows.some((c) => c.name === 'disabled_at')) return;
  try {
    await sql`alter table nimbus_identity_users add column disabled_at varchar(40)`.execute(context.root);
  } catch (error) {
    if (!/duplicate column/i.test((error as Error).message)) throw error;
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
