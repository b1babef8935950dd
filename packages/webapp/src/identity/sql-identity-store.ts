import { type Kysely, sql } from 'kysely';
import { openWebAppDatabase, type WebAppDatabaseOptions } from '../sql/open-webapp-database.js';
import { migrateWebAppSchema } from '../sql/webapp-migrations.js';
import {
  DuplicateEmailError,
  type IdentitySession,
  type IdentityStore,
  type IdentityUser,
  type NewIdentityUser,
  normalizeEmail,
} from './identity-store.js';
import { type GrantableRole, parseRole, Role } from './roles.js';
import { sqlApiTokens } from './sql-api-tokens.js';
import { IDENTITY_SCHEMA } from './sql-identity-migrations.js';
import type { IdentityDatabase, UsersTable } from './sql-identity-schema.js';
import { clearLoginAttempts, countLoginAttempt, type SqlIdentityContext } from './sql-login-attempts.js';
import { sqlUserAdmin } from './sql-user-admin.js';

export type SqlIdentityStoreOptions = WebAppDatabaseOptions;

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

function toUser(row: UsersTable): IdentityUser {
  return {
    id: row.id,
    email: row.email,
    displayName: row.display_name,
    passwordHash: row.password_hash,
    siteRole: parseRole(row.site_role) ?? Role.None,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    disabledAt: row.disabled_at ? new Date(row.disabled_at) : null,
    mustChangePassword: Number(row.must_change_password) === 1,
  };
}

/** Identity tables in the store's SQLite file or PostgreSQL database (one Kysely implementation). */
export function createSqlIdentityStore(options: SqlIdentityStoreOptions): IdentityStore {
  const opened = openWebAppDatabase<IdentityDatabase>(options, 'Identity store', {
    max: 5,
    applicationName: 'nimbus-identity',
  });
  const { root, db, schema } = opened;
  const context: SqlIdentityContext = { dialect: options.dialect, root, schema };

  const insertUser = async (executor: Kysely<IdentityDatabase>, user: NewIdentityUser) => {
    const email = normalizeEmail(user.email);
    const at = user.createdAt.toISOString();
    try {
      await executor
        .insertInto('nimbus_identity_users')
        .values({
          id: user.id,
          email,
          display_name: user.displayName,
          password_hash: user.passwordHash,
          site_role: user.siteRole,
          failed_logins: 0,
          locked_until: null,
          created_at: at,
          updated_at: at,
          disabled_at: null,
          must_change_password: user.mustChangePassword ? 1 : 0,
        })
        .execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw new DuplicateEmailError(email);
      throw error;
    }
  };

  const findUser = async (column: 'email' | 'id', value: string) => {
    const row = await db
      .selectFrom('nimbus_identity_users')
      .selectAll()
      .where(column, '=', value)
      .executeTakeFirst();
    return row ? toUser(row) : null;
  };

  const initialize = async () => {
    await migrateWebAppSchema(IDENTITY_SCHEMA, opened, options.dialect, {
      mode: options.migrationMode ?? 'AutoApply',
    });
  };

  return {
    initialize,
    countUsers: async () => {
      const row = await db
        .selectFrom('nimbus_identity_users')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    createUser: (user) => insertUser(db, user),
    createUserIfNoneExist: async (user) => {
      try {
        return await root.transaction().execute(async (trx) => {
          const tx = schema === null ? trx : trx.withSchema(schema);
          if (options.dialect === 'postgres') {
            // Serialises concurrent bootstraps: the second waits, then sees the first user.
            await sql`lock table ${sql.table(`${schema}.nimbus_identity_users`)} in share row exclusive mode`.execute(
              trx,
            );
          }
          const existing = await tx
            .selectFrom('nimbus_identity_users')
            .select('id')
            .limit(1)
            .executeTakeFirst();
          if (existing) return false;
          await insertUser(tx, user);
          return true;
        });
      } catch (error) {
        if (error instanceof DuplicateEmailError) return false;
        throw error;
      }
    },
    findUserByEmail: (email) => findUser('email', normalizeEmail(email)),
    findUserById: (id) => findUser('id', id),
    listUsers: async () => {
      const rows = await db.selectFrom('nimbus_identity_users').selectAll().orderBy('email').execute();
      return rows.map(toUser);
    },
    updatePassword: async (userId, passwordHash, at, mustChangePassword = false) => {
      await db
        .updateTable('nimbus_identity_users')
        .set({
          password_hash: passwordHash,
          updated_at: at.toISOString(),
          must_change_password: mustChangePassword ? 1 : 0,
        })
        .where('id', '=', userId)
        .execute();
    },
    setSiteRole: async (userId, role, at) => {
      await db
        .updateTable('nimbus_identity_users')
        .set({ site_role: role, updated_at: at.toISOString() })
        .where('id', '=', userId)
        .execute();
    },
    countLoginAttempt: (key, now, policy) => countLoginAttempt(context, key, now, policy),
    clearLoginAttempts: (keys) => clearLoginAttempts(db, keys),
    setEndpointRole: async (userId, endpointId, role: GrantableRole | null) => {
      await db.transaction().execute(async (trx) => {
        await trx
          .deleteFrom('nimbus_identity_endpoint_roles')
          .where('user_id', '=', userId)
          .where('endpoint_id', '=', endpointId)
          .execute();
        if (role !== null) {
          await trx
            .insertInto('nimbus_identity_endpoint_roles')
            .values({ user_id: userId, endpoint_id: endpointId, role })
            .execute();
        }
      });
    },
    listEndpointRoles: async (userId) => {
      const rows = await db
        .selectFrom('nimbus_identity_endpoint_roles')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('endpoint_id')
        .execute();
      return rows.flatMap((r) => {
        const role = parseRole(r.role);
        return role === null || role === Role.None
          ? []
          : [{ userId: r.user_id, endpointId: r.endpoint_id, role: role as GrantableRole }];
      });
    },
    createSession: async (session: IdentitySession) => {
      await db
        .insertInto('nimbus_identity_sessions')
        .values({
          token_hash: session.tokenHash,
          user_id: session.userId,
          csrf_token: session.csrfToken,
          created_at: session.createdAt.toISOString(),
          expires_at: session.expiresAt.toISOString(),
        })
        .execute();
    },
    findSession: async (tokenHash, now) => {
      const row = await db
        .selectFrom('nimbus_identity_sessions')
        .selectAll()
        .where('token_hash', '=', tokenHash)
        .where('expires_at', '>', now.toISOString())
        .executeTakeFirst();
      return row
        ? {
            tokenHash: row.token_hash,
            userId: row.user_id,
            csrfToken: row.csrf_token,
            createdAt: new Date(row.created_at),
            expiresAt: new Date(row.expires_at),
          }
        : null;
    },
    deleteSession: async (tokenHash) => {
      await db.deleteFrom('nimbus_identity_sessions').where('token_hash', '=', tokenHash).execute();
    },
    deleteSessionsOfUser: async (userId) => {
      await db.deleteFrom('nimbus_identity_sessions').where('user_id', '=', userId).execute();
    },
    ...sqlApiTokens(db),
    ...sqlUserAdmin(db),
    close: () => root.destroy(),
  };
}
