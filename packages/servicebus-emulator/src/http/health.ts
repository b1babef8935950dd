import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Namespace } from '../broker/namespace.js';

export interface HealthReport {
  readonly status: 'ok';
  readonly tier: string;
  readonly topics: number;
  readonly queues: number;
  readonly connections: number;
  readonly messages: number;
  readonly bytes: number;
}

export function healthReport(namespace: Namespace, connections: number): HealthReport {
  const usage = namespace.budget.usage;
  return {
    status: 'ok',
    tier: namespace.tier,
    topics: namespace.topics.size,
    queues: namespace.queues.size,
    connections,
    messages: usage.messages,
    bytes: usage.bytes,
  };
}

/**
 * `GET /health` over plain http on the emulator's port (the first byte of a request is a letter, of an
 * AMQP connection `A` of "AMQP", of TLS 0x16): 200 with a JSON report, for probes and `curl`. Any other
 * path is 404. The same report is served at `/health` of the https management API.
 */
export class HealthFront {
  readonly #server: Server;

  constructor(namespace: Namespace, connections: () => number) {
    this.#server = createServer((request, response) => {
      const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
      const found = (request.method === 'GET' || request.method === 'HEAD') && path === '/health';
      response.writeHead(found ? 200 : 404, { 'content-type': 'application/json' });
      response.end(
        request.method === 'HEAD'
          ? undefined
          : JSON.stringify(
              found
                ? healthReport(namespace, connections())
                : { error: `no resource at ${path}; try GET /health` },
            ),
      );
    });
  }

  accept(socket: Socket): void {
    this.#server.emit('connection', socket);
  }

  close(): void {
    this.#server.closeAllConnections();
  }
}
