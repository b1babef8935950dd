import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { NimBusError, NimBusErrorCode } from '@nimbus/core';
import pg from 'pg';

/** Where integration tests find PostgreSQL: `NIMBUS_TEST_POSTGRES_URL`, else the local trust-auth server. */
export const TEST_POSTGRES_URL =
  process.env.NIMBUS_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

let reachable: Promise<string | null> | undefined;

/** SQLSTATE 55006: the database is being accessed by other users. */
const OBJECT_IN_USE = '55006';

/** Resolves `null` when PostgreSQL answers, else the reason it does not. */
export function postgresUnavailableReason(): Promise<string | null> {
  reachable ??= (async () => {
    const client = new pg.Client({ connectionString: TEST_POSTGRES_URL, connectionTimeoutMillis: 3000 });
    try {
      await client.connect();
      await client.query('select 1');
      return null;
    } catch (error) {
      return (error as Error).message;
    } finally {
      await client.end().catch(() => undefined);
    }
  })();
  return reachable;
}

/**
 * Decides whether a PostgreSQL integration suite runs. In CI (`CI=true`) an unreachable server is an error,
 * never a skip; locally the suite is skipped with a loud message.
 */
export async function shouldRunPostgresSuite(suiteName: string): Promise<boolean> {
  const reason = await postgresUnavailableReason();
  if (reason === null) return true;
  if (process.env.CI === 'true' || process.env.NIMBUS_REQUIRE_POSTGRES === '1') {
    throw new NimBusError(
      NimBusErrorCode.ExpectationFailed,
      `${suiteName}: PostgreSQL is required in CI but unreachable at ${TEST_POSTGRES_URL}: ${reason}`,
    );
  }
  console.warn(
    `\n!!! SKIPPING ${suiteName}: PostgreSQL unreachable at ${TEST_POSTGRES_URL} (${reason}). CI fails in this case.\n`,
  );
  return false;
}

export interface TemporaryDatabase {
  readonly name: string;
  readonly url: string;
  drop(): Promise<void>;
}

/** Creates a fresh database for one suite; `drop()` removes it (terminating leftover connections). */
export async function createTemporaryDatabase(prefix = 'nimbus_test'): Promise<TemporaryDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`.toLowerCase();
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await client.connect();
      try {
        // Connections that a pool is still closing would be killed by a forced drop, and their clients would
        // report "terminating connection" as an unhandled error; so wait for them first and force only at last.
        for (let attempt = 0; attempt < 50; attempt++) {
          try {
            await client.query(`drop database if exists "${name}"`);
            return;
          } catch (error) {
            if ((error as { code?: string }).code !== OBJECT_IN_USE) throw error;
            await sleep(100);
          }
        }
        await client.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}
