import { createRequire } from 'node:module';
import { NimBusError, NimBusErrorCode } from '@nimbus/core';
import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';

/**
 * The SQL drivers are optional peer dependencies: an app on PostgreSQL never builds the native SQLite module.
 * They are loaded on first use, so importing NimBus never fails for a driver the app does not use.
 */
const requireFromHere = createRequire(import.meta.url);

/** A database's driver is not installed; the message names the `npm install` that fixes it. */
export class DriverNotInstalledError extends NimBusError<typeof NimBusErrorCode.DriverNotInstalled> {
  override readonly name = 'DriverNotInstalledError';
  constructor(
    /** The npm package of the driver (`pg`, `better-sqlite3`). */
    readonly driver: string,
    database: string,
    install: string,
    cause?: unknown,
  ) {
    super(
      NimBusErrorCode.DriverNotInstalled,
      `${database} needs the '${driver}' package, which is not installed: run \`npm install ${install}\`.`,
      { cause },
    );
  }
}

/** Requires `driver`; a driver that is not installed fails with `DriverNotInstalledError`, naming `install`. */
export function loadDriver<T>(driver: string, database: string, install: string): T {
  try {
    return requireFromHere(driver) as T;
  } catch (error) {
    const missing =
      (error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND' &&
      (error as Error).message.includes(`'${driver}'`);
    if (missing) throw new DriverNotInstalledError(driver, database, install, error);
    throw error;
  }
}

let pgDriver: typeof pg | undefined;
let sqliteDriver: typeof BetterSqlite3 | undefined;

/** The `pg` module, loaded on first use. */
export function loadPg(): typeof pg {
  pgDriver ??= loadDriver<typeof pg>('pg', 'PostgreSQL', 'pg');
  return pgDriver;
}

/** The `better-sqlite3` constructor, loaded on first use. */
export function loadBetterSqlite3(): typeof BetterSqlite3 {
  sqliteDriver ??= loadDriver<typeof BetterSqlite3>('better-sqlite3', 'SQLite', 'better-sqlite3@13');
  return sqliteDriver;
}
