import type { RequestListener } from 'node:http';

/**
 * An HTTP server that already listens (the CLI opens the WebApp's port before the database answers, to serve
 * `/healthz` and a 503 `/readyz` while it waits): `webapp.listen({ server })` hands it the WebApp's requests
 * instead of opening the port again, so the port never closes between "starting" and "ready".
 */
export interface ListeningServer {
  /** `http://host:port` it listens on. */
  readonly url: string;
  /** From now on every request goes to `handler`. */
  serve(handler: RequestListener): void;
}
