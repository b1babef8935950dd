import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { AmqpFront } from './amqp/amqp-front.js';
import type { Quotas, Tier } from './broker/limits.js';
import { Namespace } from './broker/namespace.js';
import { type EmulatorCertificates, generateCertificates } from './http/certificates.js';
import { HealthFront } from './http/health.js';

export interface EmulatorOptions {
  /** TCP port on 127.0.0.1; 0 picks a free one. Always give one: 5672 is often taken by RabbitMQ. */
  readonly port: number;
  readonly host?: string;
  /** The shared access key put into the connection string (never checked); generated when absent. */
  readonly sharedAccessKey?: string;
  readonly maxMessages?: number;
  readonly maxBytes?: number;
  /** Whose quotas apply: 'standard' (default: 256 KB messages, 10,000 entities, …) or 'premium' (1 MB, 1,000). */
  readonly tier?: Tier;
  /** Quotas that differ from the tier's (message bytes, entities, subscriptions per topic, connections). */
  readonly quotas?: Partial<Quotas>;
  /** Shortest lock duration the management API accepts (default 5,000 ms, as Service Bus); tests may lower it. */
  readonly minLockDurationMs?: number;
  readonly log?: (line: string) => void;
  /**
   * The Atom management API over https on the same port (sniffed by the first byte); on unless `false`. Without
   * given certificates a CA and a server certificate are generated; `caPath` gets the CA's PEM written to it.
   */
  readonly managementApi?: false | { readonly certificates?: EmulatorCertificates; readonly caPath?: string };
  /** Loads and writes the topology (topics, subscriptions, rules) to this journal file. */
  readonly journalPath?: string;
}

/** What the https side plugs in: it takes over sockets that start with a TLS handshake. */
export interface HttpsFront {
  attach(namespace: Namespace, connections: () => number): void;
  accept(socket: Socket): void;
  close(): Promise<void>;
}

export interface RunningEmulator {
  readonly port: number;
  readonly host: string;
  readonly namespace: Namespace;
  /** `Endpoint=sb://host:port;…;UseDevelopmentEmulator=true` for the Azure SDK clients. */
  readonly connectionString: string;
  /** PEM of the CA the management API's certificate chains to (null when the API is off). */
  readonly caPem: string | null;
  stop(): Promise<void>;
}

const TLS_HANDSHAKE = 0x16;

/** An http request line starts with an upper-case method; an AMQP connection starts with `AMQP`. */
function isPlainHttp(byte: number): boolean {
  return byte >= 0x42 && byte <= 0x5a; // B-Z
}

export async function startEmulator(options: EmulatorOptions): Promise<RunningEmulator> {
  if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535) {
    throw new RangeError(`startEmulator: port must be an integer 0-65535, got ${String(options.port)}`);
  }
  const host = options.host ?? '127.0.0.1';
  const journal = options.journalPath ? await import('./journal.js') : null;
  let namespace: Namespace | undefined;
  const created = new Namespace({
    maxMessages: options.maxMessages,
    maxBytes: options.maxBytes,
    tier: options.tier,
    quotas: options.quotas,
    minLockDurationMs: options.minLockDurationMs,
    log: options.log,
    onTopologyChanged: () => {
      if (journal && namespace) journal.writeJournal(options.journalPath!, namespace, options.log);
    },
  });
  if (journal) journal.loadJournal(options.journalPath!, created);
  namespace = created;
  const amqp = new AmqpFront(created);
  const health = new HealthFront(created, () => amqp.connectionCount);
  let https: HttpsFront | null = null;
  let caPem: string | null = null;
  if (options.managementApi !== false) {
    const { AtomHttpsFront } = await import('./http/https-front.js');
    const certificates =
      options.managementApi?.certificates ?? (await generateCertificates([host, 'localhost']));
    https = new AtomHttpsFront(certificates);
    https.attach(created, () => amqp.connectionCount);
    caPem = certificates.caPem;
    if (options.managementApi?.caPath) writeFileSync(options.managementApi.caPath, caPem, { mode: 0o644 });
  }
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.once('readable', () => {
      const first: Buffer | null = socket.read(1);
      if (first === null) return;
      socket.unshift(first);
      if (first[0] === TLS_HANDSHAKE && https) https.accept(socket);
      else if (isPlainHttp(first[0]!)) health.accept(socket);
      else amqp.accept(socket);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const key = options.sharedAccessKey ?? randomBytes(32).toString('base64');
  const connectionString = `Endpoint=sb://${host}:${port};SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=${key};UseDevelopmentEmulator=true`;
  return {
    port,
    host,
    namespace: created,
    connectionString,
    caPem,
    async stop() {
      amqp.close();
      health.close();
      await https?.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      created.dispose();
    },
  };
}
