import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { createSecureContext, TLSSocket } from 'node:tls';
import type { Namespace } from '../broker/namespace.js';
import type { HttpsFront } from '../start.js';
import { asBrokerError, BrokerError, Condition } from '../wire/errors.js';
import { errorResponse, handleAdmin } from './admin-routes.js';
import type { EmulatorCertificates } from './certificates.js';
import { healthReport } from './health.js';

const MAX_BODY_BYTES = 1024 * 1024;

/** The management API over https, fed the sockets whose first byte is a TLS handshake. */
export class AtomHttpsFront implements HttpsFront {
  readonly #server: Server;
  readonly #context;
  #namespace: Namespace | null = null;

  constructor(certificates: EmulatorCertificates) {
    this.#context = createSecureContext({ cert: certificates.certPem, key: certificates.keyPem });
    this.#server = createServer((request, response) => void this.#handle(request, response));
  }

  #connections: () => number = () => 0;

  /** The namespace it manages, and where the health report reads the open AMQP connections. */
  attach(namespace: Namespace, connections: () => number): void {
    this.#namespace = namespace;
    this.#connections = connections;
  }

  accept(socket: Socket): void {
    const secure = new TLSSocket(socket, { isServer: true, secureContext: this.#context });
    secure.on('error', () => secure.destroy());
    this.#server.emit('connection', secure);
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let result: { status: number; body: string };
    if (request.method === 'GET' && request.url?.split('?')[0] === '/health') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(healthReport(this.#namespace!, this.#connections())));
      return;
    }
    try {
      const body = await readBody(request);
      result = await handleAdmin(this.#namespace!, {
        method: request.method ?? 'GET',
        url: new URL(request.url ?? '/', `https://${request.headers.host ?? '127.0.0.1'}`),
        ifMatch: request.headers['if-match'] as string | undefined,
        body,
      });
    } catch (error) {
      result = errorResponse(asBrokerError(error));
    }
    response.writeHead(result.status, { 'content-type': 'application/atom+xml;type=entry;charset=utf-8' });
    response.end(result.body);
  }
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) reject(new BrokerError(Condition.tooLarge, 'request body over 1 MiB'));
      else chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}
