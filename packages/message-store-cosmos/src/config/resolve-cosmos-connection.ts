import type { Agent } from 'node:https';
import type { TokenCredential } from '@azure/core-auth';
import type { CosmosClientOptions } from '@azure/cosmos';
import { InvalidStoreOptionError } from '@nimbus/message-store';

/** Environment variables the provider reads (never argv: a key in argv is visible to every local user). */
export const COSMOS_ENV = {
  /** `https://<account>.documents.azure.com:443/`, signed in with DefaultAzureCredential. */
  accountEndpoint: 'NIMBUS_COSMOS_ACCOUNT_ENDPOINT',
  /** `AccountEndpoint=…;AccountKey=…;` (key auth), used when no account endpoint is set. */
  connectionString: 'NIMBUS_COSMOS_CONNECTION_STRING',
  /** Database id; default `nimbus`. */
  database: 'NIMBUS_COSMOS_DATABASE',
} as const;

export const DEFAULT_COSMOS_DATABASE = 'nimbus';

export interface CosmosConnectionOptions {
  /** Account endpoint; wins over a connection string. Signs in with `credential` (default DefaultAzureCredential). */
  readonly accountEndpoint?: string;
  readonly credential?: TokenCredential;
  /** `AccountEndpoint=…;AccountKey=…;` */
  readonly connectionString?: string;
  /** TLS trust for a server with a private CA (the local test server); production needs none. */
  readonly agent?: Agent;
  /** Environment to read `NIMBUS_COSMOS_*` from (default: process.env). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export type ResolvedCosmosConnection =
  | {
      readonly kind: 'aad';
      readonly endpoint: string;
      readonly credential: TokenCredential | null;
      readonly agent?: Agent;
    }
  | { readonly kind: 'key'; readonly endpoint: string; readonly key: string; readonly agent?: Agent };

function parseConnectionString(value: string, source: string): { endpoint: string; key: string } {
  const parts = new Map<string, string>();
  for (const segment of value.split(';')) {
    const at = segment.indexOf('=');
    if (at > 0) parts.set(segment.slice(0, at).trim().toLowerCase(), segment.slice(at + 1).trim());
  }
  const endpoint = parts.get('accountendpoint');
  const key = parts.get('accountkey');
  if (!endpoint || !key) {
    throw new InvalidStoreOptionError(
      'connectionString',
      '(hidden)',
      `The Cosmos DB connection string from ${source} needs AccountEndpoint=…;AccountKey=…; (the value is not shown because it holds a key).`,
    );
  }
  return { endpoint: checkedEndpoint(endpoint, source), key };
}

function checkedEndpoint(endpoint: string, source: string): string {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new InvalidStoreOptionError(
      'accountEndpoint',
      endpoint,
      `The Cosmos DB account endpoint from ${source} is not a URL: '${endpoint}'.`,
    );
  }
  if (url.protocol !== 'https:') {
    throw new InvalidStoreOptionError(
      'accountEndpoint',
      endpoint,
      `The Cosmos DB account endpoint from ${source} must use https: '${endpoint}'.`,
    );
  }
  return url.href;
}

/**
 * The connection, in the documented order: an account endpoint (code, then NIMBUS_COSMOS_ACCOUNT_ENDPOINT)
 * with Entra sign-in, then a connection string (code, then NIMBUS_COSMOS_CONNECTION_STRING).
 */
export function resolveCosmosConnection(options: CosmosConnectionOptions): ResolvedCosmosConnection {
  const env = options.env ?? process.env;
  const agent = options.agent === undefined ? {} : { agent: options.agent };
  const endpoint = options.accountEndpoint ?? env[COSMOS_ENV.accountEndpoint];
  if (endpoint) {
    const source = options.accountEndpoint
      ? 'code options'
      : `environment variable ${COSMOS_ENV.accountEndpoint}`;
    return {
      kind: 'aad',
      endpoint: checkedEndpoint(endpoint, source),
      credential: options.credential ?? null,
      ...agent,
    };
  }
  const connectionString = options.connectionString ?? env[COSMOS_ENV.connectionString];
  if (connectionString) {
    const source = options.connectionString
      ? 'code options'
      : `environment variable ${COSMOS_ENV.connectionString}`;
    return { kind: 'key', ...parseConnectionString(connectionString, source), ...agent };
  }
  throw new InvalidStoreOptionError(
    'connection',
    null,
    `No Cosmos DB connection configured: set ${COSMOS_ENV.accountEndpoint} (Entra sign-in) or ${COSMOS_ENV.connectionString}, or pass a CosmosClient.`,
  );
}

/** CosmosClient options for a resolved connection; DefaultAzureCredential is loaded only when needed. */
export async function cosmosClientOptions(
  connection: ResolvedCosmosConnection,
  extra: Partial<CosmosClientOptions>,
): Promise<CosmosClientOptions> {
  const agent = connection.agent === undefined ? {} : { agent: connection.agent };
  if (connection.kind === 'key')
    return { ...extra, endpoint: connection.endpoint, key: connection.key, ...agent };
  const credential = connection.credential ?? new (await import('@azure/identity')).DefaultAzureCredential();
  return { ...extra, endpoint: connection.endpoint, aadCredentials: credential, ...agent };
}
