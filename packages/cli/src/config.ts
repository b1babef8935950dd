import { join, resolve } from 'node:path';

export type BackendKind = 'sqlite' | 'postgres' | 'memory';
/** Azure Service Bus is a transport only. */
export type TransportKind = BackendKind | 'servicebus';
/** Cosmos DB is a store only (no Cosmos transport). */
export type StoreKind = BackendKind | 'cosmos';

/**
 * `colocated`: the store's tables live in the transport's database (one SQLite file, one PostgreSQL database) and
 * every SQL transport this CLI opens records plain outcomes in the store in its own transactions; `resolver`:
 * every copy travels to the Resolver, which projects it (the only shape when store and transport are apart).
 */
export type TrackingShape = 'colocated' | 'resolver';

export interface NimbusConfig {
  readonly dataDir: string;
  readonly store: StoreKind;
  readonly transport: TransportKind;
  /** Default `colocated` when store and transport are both SQLite or both PostgreSQL (`NIMBUS_TRACKING`). */
  readonly tracking: TrackingShape;
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
  const tracking = trackingShape(store, transport, env.NIMBUS_TRACKING);
  const transportSqlitePath = join(dataDir, 'transport.db');
  return {
    dataDir,
    store,
    transport,
    tracking,
    servicebusConnectionString: overrides.servicebusConnectionString ?? null,
    postgresUrl,
    // Co-located on SQLite, the store's tables join the transport's in one file (adapters keep their path).
    storeSqlitePath: tracking === 'colocated' ? transportSqlitePath : join(dataDir, 'store.db'),
    transportSqlitePath,
    identitySqlitePath: join(dataDir, 'identity.db'),
    host: overrides.host ?? env.NIMBUS_HOST ?? '127.0.0.1',
    port: port(
      overrides.port !== undefined ? '--port' : 'NIMBUS_PORT',
      overrides.port ?? env.NIMBUS_PORT ?? 7070,
    ),
  };
}

/** The tracking shape: co-located whenever store and transport are the same kind of SQL database. */
function trackingShape(store: StoreKind, transport: TransportKind, value: string | undefined): TrackingShape {
  const sameDatabase = (store === 'sqlite' || store === 'postgres') && store === transport;
  if (value === undefined || value === '') return sameDatabase ? 'colocated' : 'resolver';
  if (value !== 'colocated' && value !== 'resolver') {
    throw new ConfigError(`NIMBUS_TRACKING must be one of colocated, resolver; got '${value}'.`);
  }
  if (value === 'colocated' && !sameDatabase) {
    throw new ConfigError(
      `NIMBUS_TRACKING=colocated needs the store and the transport in one database (both sqlite or both postgres); got store ${store}, transport ${transport}.`,
    );
  }
  return value;
}
