import type { Kysely } from 'kysely';
import type { ApiTokenRecord } from './identity-store.js';
import { GRANTABLE_ROLES, type GrantableRole } from './roles.js';
import type { ApiTokensTable, IdentityDatabase } from './sql-identity-schema.js';

export async function createApiTokensTable(db: Kysely<IdentityDatabase>): Promise<void> {
  await db.schema
    .createTable('nimbus_identity_api_tokens')
    .ifNotExists()
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('token_hash', 'varchar(128)', (c) => c.notNull().unique())
    .addColumn('max_role', 'varchar(20)')
    .addColumn('created_at', 'varchar(40)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(40)', (c) => c.notNull())
    .addColumn('revoked_at', 'varchar(40)')
    .execute();
  await db.schema
    .createIndex('nimbus_identity_api_tokens_user')
    .ifNotExists()
    .on('nimbus_identity_api_tokens')
    .column('user_id')
    .execute();
}

function toToken(row: ApiTokensTable): ApiTokenRecord {
  const maxRole = GRANTABLE_ROLES.find((r) => r === row.max_role) ?? null;
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    tokenHash: row.token_hash,
    maxRole: maxRole as GrantableRole | null,
    createdAt: new Date(row.created_at),
    expiresAt: new Date(row.expires_at),
    revokedAt: row.revoked_at === null ? null : new Date(row.revoked_at),
  };
}

/** The API-token half of the SQL identity store. */
export function sqlApiTokens(db: Kysely<IdentityDatabase>) {
  return {
    createApiToken: async (token: ApiTokenRecord) => {
      await db
        .insertInto('nimbus_identity_api_tokens')
        .values({
          id: token.id,
          user_id: token.userId,
          name: token.name,
          token_hash: token.tokenHash,
          max_role: token.maxRole,
          created_at: token.createdAt.toISOString(),
          expires_at: token.expiresAt.toISOString(),
          revoked_at: token.revokedAt?.toISOString() ?? null,
        })
        .execute();
    },
    findApiToken: async (tokenHash: string, now: Date) => {
      const row = await db
        .selectFrom('nimbus_identity_api_tokens')
        .selectAll()
        .where('token_hash', '=', tokenHash)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now.toISOString())
        .executeTakeFirst();
      return row ? toToken(row) : null;
    },
    listApiTokens: async (userId: string) => {
      const rows = await db
        .selectFrom('nimbus_identity_api_tokens')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return rows.map(toToken);
    },
    revokeApiToken: async (userId: string, tokenId: string, at: Date) => {
      const result = await db
        .updateTable('nimbus_identity_api_tokens')
        .set({ revoked_at: at.toISOString() })
        .where('id', '=', tokenId)
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}
