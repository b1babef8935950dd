import { once } from 'node:events';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { loopbackCertificate } from './loopback-certificate.js';
import { patchLocalServerTtlExpiry } from './ttl-expiry-patch.js';

/** The Cosmos emulator's published well-known key; the local server does not check keys at all. */
export const LOCAL_COSMOS_KEY =
  'C2y6yDjf5/R+ob0N8A7Cgv30VRDJIWEHLM+4QDU5DE2nQ9nDuVTqobD4b8mGGyPMbIZnqyMsEcaGQy67XIw/Jw==';

export interface LocalCosmosServerOptions {
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** Default 0 (any free port). */
  readonly port?: number;
  /**
   * Lets a test answer a request itself before the server sees it (inject a 429, a 503…): return true
   * when the response was written.
   */
  readonly intercept?: (
    req: import('node:http').IncomingMessage,
    res: import('node:http').ServerResponse,
  ) => boolean;
}

export interface LocalCosmosServer {
  /** `https://127.0.0.1:PORT/` */
  readonly endpoint: string;
  readonly key: string;
  /** PEM the client must trust (the server's certificate, made at start). */
  readonly ca: string;
  /** An agent that trusts `ca`, for `new CosmosClient({ endpoint, key, agent })`. */
  readonly agent: https.Agent;
  /** `AccountEndpoint=…;AccountKey=…;` for configuration (the agent is still needed for TLS trust). */
  readonly connectionString: string;
  close(): Promise<void>;
}

/**
 * Starts `@vercel/cosmosdb-server` (a Cosmos DB SQL-API server in Node, data in memory) in this
 * process, over https with a certificate made now, with TTL expiry patched in. For tests and
 * `nimbus dev --store cosmos` without an account; nothing survives `close()`.
 */
export async function startLocalCosmosServer(
  options: LocalCosmosServerOptions = {},
): Promise<LocalCosmosServer> {
  patchLocalServerTtlExpiry();
  const { createHttpsServer } = await import('@vercel/cosmosdb-server');
  const { cert, key } = await loopbackCertificate();
  const server = createHttpsServer({ cert, key, minVersion: 'TLSv1.2', keepAlive: true } as Parameters<
    typeof createHttpsServer
  >[0]);
  if (options.intercept) {
    const intercept = options.intercept;
    const [handler] = server.listeners('request') as ((...a: unknown[]) => void)[];
    server.removeAllListeners('request');
    server.on('request', (req, res) => {
      if (!intercept(req, res)) handler?.(req, res);
    });
  }
  server.listen(options.port ?? 0, options.host ?? '127.0.0.1');
  await once(server, 'listening');
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const endpoint = `https://${host}:${address.port}/`;
  const agent = new https.Agent({ ca: cert, keepAlive: true });
  return {
    endpoint,
    key: LOCAL_COSMOS_KEY,
    ca: cert,
    agent,
    connectionString: `AccountEndpoint=${endpoint};AccountKey=${LOCAL_COSMOS_KEY};`,
    close: async () => {
      agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
    },
  };
}
