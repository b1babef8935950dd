import { NimBusError, NimBusErrorCode } from '@nimbus/core';
import { sqlName } from '@nimbus/sql';
import {
  DEFAULT_CONNECTION_NAME,
  DEFAULT_SCHEMA,
  DEFAULT_SQLITE_PATH,
  type SqlConnectionSettings,
  type SqlDialectName,
} from './sql-store-settings.js';

export interface ConnectionOptions {
  /** Defaults to `NIMBUS_STORE` from the environment, then `sqlite`. */
  readonly dialect?: SqlDialectName;
  /** SQLite database file. Defaults to `NIMBUS_STORE_SQLITE_PATH`, then `.nimbus/store.db`. */
  readonly filename?: string;
  /** PostgreSQL connection string. Wins over every environment variable. */
  readonly connectionString?: string;
  /** Name looked up as `NIMBUS_CONNECTION_STRING_<NAME>` when no other source is set. Default `postgres`. */
  readonly connectionName?: string;
  /** PostgreSQL schema (default `nimbus`); on SQLite the table prefix `<schema>_`. */
  readonly schema?: string;
  readonly busyTimeoutMs?: number;
  readonly poolSize?: number;
  /** PostgreSQL `statement_timeout` of every store connection (ms; absent or 0: the server's setting). */
  readonly statementTimeoutMs?: number;
  /** PostgreSQL `lock_timeout` of every store connection (ms; absent or 0: the server's setting). */
  readonly lockTimeoutMs?: number;
  /** Where settings are read from; defaults to `process.env`. Command-line arguments are never read. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Resolves connection settings in a fixed order: explicit options, then `NIMBUS_POSTGRES_URL`,
 * then `NIMBUS_STORE_CONNECTION_STRING`, then the named connection `NIMBUS_CONNECTION_STRING_<NAME>`.
 */
export function resolveConnectionSettings(options: ConnectionOptions = {}): SqlConnectionSettings {
  const env = options.env ?? process.env;
  const dialect = options.dialect ?? parseDialect(env.NIMBUS_STORE);
  const schema = sqlName(options.schema ?? DEFAULT_SCHEMA, "Invalid store option 'schema':");
  if (dialect === 'sqlite') {
    const filename =
      nonBlank(options.filename) ?? nonBlank(env.NIMBUS_STORE_SQLITE_PATH) ?? DEFAULT_SQLITE_PATH;
    return {
      dialect,
      filename,
      schema,
      busyTimeoutMs: positive('busyTimeoutMs', options.busyTimeoutMs, 5000),
    };
  }
  const name = (options.connectionName ?? DEFAULT_CONNECTION_NAME).toUpperCase();
  const candidates: [string, string | undefined][] = [
    ['option connectionString', options.connectionString],
    ['NIMBUS_POSTGRES_URL', env.NIMBUS_POSTGRES_URL],
    ['NIMBUS_STORE_CONNECTION_STRING', env.NIMBUS_STORE_CONNECTION_STRING],
    [`NIMBUS_CONNECTION_STRING_${name}`, env[`NIMBUS_CONNECTION_STRING_${name}`]],
  ];
  const found = candidates.find(([, value]) => nonBlank(value) !== undefined);
  if (!found) {
    throw new NimBusError(
      NimBusErrorCode.InvalidOption,
      `No PostgreSQL connection string for the message store. Set one of: ${candidates.map(([k]) => k).join(', ')}.`,
    );
  }
  return {
    dialect,
    connectionString: found[1]!.trim(),
    source: found[0],
    schema,
    poolSize: positive('poolSize', options.poolSize, 10),
    statementTimeoutMs: nonNegative('statementTimeoutMs', options.statementTimeoutMs),
    lockTimeoutMs: nonNegative('lockTimeoutMs', options.lockTimeoutMs),
  };
}

function parseDialect(value: string | undefined): SqlDialectName {
  const v = nonBlank(value)?.toLowerCase();
  if (v === undefined || v === 'sqlite') return 'sqlite';
  if (v === 'postgres' || v === 'postgresql') return 'postgres';
  throw new NimBusError(
    NimBusErrorCode.InvalidOption,
    `Invalid NIMBUS_STORE value '${value}': expected 'sqlite' or 'postgres'.`,
  );
}

function nonBlank(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== '' ? value : undefined;
}

function nonNegative(name: string, value: number | undefined): number {
  if (value === undefined) return 0;
  if (!Number.isInteger(value) || value < 0) {
    throw new NimBusError(
      NimBusErrorCode.InvalidOption,
      `Invalid store option '${name}': ${value}. Expected a whole number of milliseconds >= 0.`,
    );
  }
  return value;
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0) {
    throw new NimBusError(
      NimBusErrorCode.InvalidOption,
      `Invalid store option '${name}': ${value}. Expected a positive whole number.`,
    );
  }
  return value;
}
