import { join, resolve } from 'node:path';

export type BackendKind = 'sqlite' | 'postgres' | 'memory';
/** Azure Service Bus is a transport only. */
export type TransportKind = BackendKind | 'servicebus';
/** Cosmos DB is a store only (no Cosmos transport). */
export type StoreKind = BackendKind | 'cosmos';

export interface NimbusConfig {
  readonly dataDir: string;
  readonly store: StoreKind;
  readonly transport: TransportKind;
  /** An emulator connection string from `--servicebus-connection-string`; otherwise from the environment. */
  readonly servicebusConnectionString: string | null;
  /** PostgreSQL connection string, from the environment only (never argv). */
  readonly postgresUrl: string | null;
  readonly storeSqlitePath: string;
  readonly transportSqlitePath: string;
  /** Users and sign-in sessions of the WebApp (SQLite); on PostgreSQL they live in the store database. */
  readonly identitySqlitePath: string;
  readonly host: string;
  readonly port: number;
}

export interface ConfigOverrides {
  readonly dataDir?: string;
  readonly store?: string;
  readonly transport?: string;
  readonly servicebusConnectionString?: string;
  readonly host?: string;
  readonly port?: string | number;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

const KINDS: readonly BackendKind[] = ['sqlite', 'postgres', 'memory'];
export const STORE_KINDS: readonly StoreKind[] = [...KINDS, 'cosmos'];
export const TRANSPORT_KINDS: readonly TransportKind[] = [...KINDS, 'servicebus'];

function kind<K extends string>(option: string, value: string, kinds: readonly K[]): K {
  if ((kinds as readonly string[]).includes(value)) return value as K;
  throw new ConfigError(`${option} must be one of ${kinds.join(', ')}; got '${value}'.`);
}

function port(option: string, value: string | number): number {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) {
    throw new ConfigError(`${option} must be a port number between 0 and 65535; got '${value}'.`);
  }
  return n;
}

/**
 * Resolves settings: command-line options win over the environment, which wins over the defaults
 * (SQLite files under `.nimbus/`). Connection strings come from the environment only.
 */
export function loadConfig(
  overrides: ConfigOverrides = {},
  env: NodeJS.ProcessEnv = process.env,
): NimbusConfig {
  const dataDir = resolve(overrides.dataDir ?? env.NIMBUS_DATA_DIR ?? '.nimbus');
  const store = kind(
    overrides.store ? '--store' : 'NIMBUS_STORE',
    overrides.store ?? env.NIMBUS_STORE ?? 'sqlite',
    STORE_KINDS,
  );
  const transport = kind(
    overrides.transport ? '--transport' : 'NIMBUS_TRANSPORT',
    overrides.transport ?? env.NIMBUS_TRANSPORT ?? 'sqlite',
    TRANSPORT_KINDS,
  );
  const postgresUrl = env.NIMBUS_POSTGRES_URL ?? null;
  if ((store === 'postgres' || transport === 'postgres') && !postgresUrl) {
    throw new ConfigError('PostgreSQL was selected but NIMBUS_POSTGRES_URL is not set in the environment.');
  }
  return {
    dataDir,
    store,
    transport,
    servicebusConnectionString: overrides.servicebusConnectionString ?? null,
    postgresUrl,
    storeSqlitePath: join(dataDir, 'store.db'),
    transportSqlitePath: join(dataDir, 'transport.db'),
    identitySqlitePath: join(dataDir, 'identity.db'),
    host: overrides.host ?? env.NIMBUS_HOST ?? '127.0.0.1',
    port: port(
      overrides.port !== undefined ? '--port' : 'NIMBUS_PORT',
      overrides.port ?? env.NIMBUS_PORT ?? 7070,
    ),
  };
}
