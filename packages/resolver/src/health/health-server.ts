import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Logger, type ReadinessReport, readinessAnswer } from '@nimbus/core';

export interface HealthRoutesOptions {
  readonly readiness: () => Promise<ReadinessReport>;
  /** Serves `/metrics` when given. */
  readonly metrics?: { readonly contentType: string; scrape(): Promise<string> };
  readonly logger: Logger;
}

export interface HealthServerOptions extends HealthRoutesOptions {
  readonly host?: string;
  readonly port: number;
}

export interface HealthServer {
  /** `http://host:port` */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * The Resolver's health routes as a plain Node request listener: `/healthz` (the process answers), `/readyz`
 * (store and transport reachable, schema current; 503 otherwise) and `/metrics` (Prometheus). Everything else is
 * a JSON 404. `startHealthServer` serves it on its own port; the CLI hands it to the port it opened at start.
 */
export function healthRequestListener(options: HealthRoutesOptions): RequestListener {
  return (request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    const send = (status: number, type: string, body: string) => {
      response.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store' });
      response.end(body);
    };
    const json = (status: number, body: unknown) =>
      send(status, 'application/json; charset=utf-8', JSON.stringify(body));
    if (request.method !== 'GET') return json(405, { error: 'MethodNotAllowed', message: 'Use GET.' });
    const answer = async () => {
      if (path === '/healthz') return json(200, { status: 'ok' });
      if (path === '/readyz') {
        const { statusCode, body } = readinessAnswer(await options.readiness());
        return json(statusCode, body);
      }
      if (path === '/metrics' && options.metrics)
        return send(200, options.metrics.contentType, await options.metrics.scrape());
      return json(404, { error: 'NotFound', message: `No route for GET ${path}` });
    };
    answer().catch((error: unknown) => {
      options.logger.error({ error, path }, 'Health port request failed');
      if (!response.headersSent) json(500, { error: 'InternalError', message: 'See the Resolver log.' });
      else response.end();
    });
  };
}

/** The Resolver's health port on its own server (see `healthRequestListener` for the routes). */
export async function startHealthServer(options: HealthServerOptions): Promise<HealthServer> {
  const server: Server = createServer(healthRequestListener(options));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
