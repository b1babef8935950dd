import type { Kysely } from 'kysely';
import type { IdentityDatabase } from './sql-identity-schema.js';

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
