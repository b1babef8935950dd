import { createServer, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readinessAnswer } from '@nimbus/core';
import type { ListeningServer } from '@nimbus/webapp';

/** How long a client is told to wait before asking again while the process starts. */
const RETRY_AFTER_SECONDS = 5;

/**
 * A port opened before the process can serve (the WebApp's port, the Resolver's health port): while the
 * database does not answer it serves `/healthz` (200: the process lives) and `/readyz` (503 with why it is not
 * ready), and every other request gets a 503 with `Retry-After`. `serve()` hands every request to the started
 * service; `starting()` goes back to the start-up answers (a start attempt failed and is retried).
 */
export class StartupListener implements ListeningServer {
  #handler: RequestListener;
  #reason = 'starting';

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly what: string,
  ) {
    this.#handler = this.#startingHandler;
  }

  /** Listens on `host:port`; rejects with the listen error (`EADDRINUSE`, …). */
  static async open(what: string, host: string, port: number): Promise<StartupListener> {
    let listener: StartupListener | null = null;
    const server = createServer((request, response) => {
      if (listener) listener.#handler(request, response);
      else response.writeHead(503).end();
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const address = server.address() as AddressInfo;
    const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    listener = new StartupListener(server, `http://${shown}:${address.port}`, what);
    return listener;
  }

  /** Why the process is not ready yet (shown by `/readyz`). */
  get reason(): string {
    return this.#reason;
  }

  serve(handler: RequestListener): void {
    this.#handler = handler;
  }

  starting(reason: string): void {
    this.#reason = reason;
    this.#handler = this.#startingHandler;
  }

  close(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.server.close((error) => (error ? reject(error) : resolve()));
      this.server.closeAllConnections();
    });
  }

  readonly #startingHandler: RequestListener = (request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path === '/healthz') return json(response, 200, { status: 'ok' });
    if (path === '/readyz') {
      const { statusCode, body } = readinessAnswer({
        ready: false,
        checks: { startup: { ready: false, reason: `${this.what} is starting: ${this.#reason}` } },
      });
      return json(response, statusCode, body);
    }
    response.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
    return json(response, 503, {
      error: 'ServiceUnavailable',
      message: `${this.what} is starting and cannot serve yet (see /readyz); retry shortly.`,
    });
  };
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
  });
  response.end(JSON.stringify(body));
}
