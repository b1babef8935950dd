import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';

/**
 * The SQL drivers are optional peer dependencies: an app on PostgreSQL never builds the native SQLite module.
 * They are loaded on first use, so importing NimBus never fails for a driver the app does not use.
 */
const requireFromHere = createRequire(import.meta.url);

export class DriverNotInstalledError extends Error {
  override readonly name = 'DriverNotInstalledError';
  constructor(
    readonly driver: string,
    database: string,
    install: string,
  ) {
    super(
      `${database} needs the '${driver}' package, which is not installed: run \`npm install ${install}\`.`,
    );
  }
}

function load<T>(driver: string, database: string, install: string): T {
  try {
    return requireFromHere(driver) as T;
  } catch (error) {
    const missing =
      (error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND' &&
      (error as Error).message.includes(`'${driver}'`);
    if (missing) throw new DriverNotInstalledError(driver, database, install);
    throw error;
  }
}

let pgDriver: typeof pg | undefined;
let sqliteDriver: typeof BetterSqlite3 | undefined;

/** The `pg` module, loaded on first use. */
export function loadPg(): typeof pg {
  pgDriver ??= load<typeof pg>('pg', 'PostgreSQL', 'pg');
  return pgDriver;
}

/** The `better-sqlite3` constructor, loaded on first use. */
export function loadBetterSqlite3(): typeof BetterSqlite3 {
  sqliteDriver ??= load<typeof BetterSqlite3>('better-sqlite3', 'SQLite', 'better-sqlite3@12');
  return sqliteDriver;
}
