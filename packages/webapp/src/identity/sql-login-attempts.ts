import { type Kysely, sql } from 'kysely';
import { type LoginAttemptCount, type LoginAttemptPolicy, nextLoginAttempt } from './identity-store.js';
import type { IdentityDatabase } from './sql-identity-schema.js';

export interface SqlIdentityContext {
  readonly dialect: 'sqlite' | 'postgres';
  /** The database without a schema prefix (for transactions and connections). */
  readonly root: Kysely<IdentityDatabase>;
  /** `null` on SQLite. */
  readonly schema: string | null;
}

const scoped = (ctx: SqlIdentityContext, db: Kysely<IdentityDatabase>) =>
  ctx.schema === null ? db : db.withSchema(ctx.schema);

export async function createLoginAttemptsTable(db: Kysely<IdentityDatabase>): Promise<void> {
  await db.schema
    .createTable('nimbus_identity_login_attempts')
    .ifNotExists()
    .addColumn('attempt_key', 'varchar(600)', (c) => c.primaryKey())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('window_start', 'varchar(40)', (c) => c.notNull())
    .addColumn('locked_until', 'varchar(40)')
    .execute();
}

/**
 * Read-modify-write of one key under a write lock, so parallel attempts are counted one after another:
 * `begin immediate` on SQLite (also across processes), `select … for update` on PostgreSQL.
 */
async function underWriteLock<T>(
  ctx: SqlIdentityContext,
  work: (db: Kysely<IdentityDatabase>) => Promise<T>,
): Promise<T> {
  if (ctx.dialect === 'postgres') {
    return ctx.root.transaction().execute((trx) => work(scoped(ctx, trx)));
  }
  return ctx.root.connection().execute(async (connection) => {
    await sql`begin immediate`.execute(connection);
    try {
      const result = await work(connection);
      await sql`commit`.execute(connection);
      return result;
    } catch (error) {
      await sql`rollback`.execute(connection);
      throw error;
    }
  });
}

export async function countLoginAttempt(
  ctx: SqlIdentityContext,
  key: string,
  now: Date,
  policy: LoginAttemptPolicy,
): Promise<LoginAttemptCount> {
  return underWriteLock(ctx, async (db) => {
    // The row must exist before it can be locked: parallel first attempts would otherwise all read none.
    await db
      .insertInto('nimbus_identity_login_attempts')
      .values({ attempt_key: key, attempts: 0, window_start: now.toISOString(), locked_until: null })
      .onConflict((oc) => oc.column('attempt_key').doNothing())
      .execute();
    let query = db.selectFrom('nimbus_identity_login_attempts').selectAll().where('attempt_key', '=', key);
    if (ctx.dialect === 'postgres') query = query.forUpdate();
    const row = await query.executeTakeFirstOrThrow();
    const next = nextLoginAttempt(
      {
        attempts: Number(row.attempts),
        windowStart: new Date(row.window_start),
        lockedUntil: row.locked_until === null ? null : new Date(row.locked_until),
      },
      now,
      policy,
    );
    const values = {
      attempts: next.attempts,
      window_start: next.windowStart.toISOString(),
      locked_until: next.lockedUntil?.toISOString() ?? null,
    };
    await db
      .updateTable('nimbus_identity_login_attempts')
      .set(values)
      .where('attempt_key', '=', key)
      .execute();
    return { attempts: next.attempts, lockedUntil: next.lockedUntil, lockStarted: next.lockStarted };
  });
}

export async function clearLoginAttempts(
  db: Kysely<IdentityDatabase>,
  keys: readonly string[],
): Promise<void> {
  if (keys.length === 0) return;
  await db
    .deleteFrom('nimbus_identity_login_attempts')
    .where('attempt_key', 'in', [...keys])
    .execute();
}
