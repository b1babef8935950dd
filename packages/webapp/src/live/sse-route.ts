import type { FastifyInstance } from 'fastify';
import { unauthorized } from '../http/http-error.js';
import type { LiveUpdateHub } from './live-update-hub.js';

export interface SseOptions {
  readonly hub: LiveUpdateHub;
  /** Comment line sent this often so proxies keep the stream open. */
  readonly keepAliveMs: number;
}

/**
 * `GET /api/live`: Server-Sent Events. Each event's name is the update type and its data the JSON update;
 * the browser re-reads what changed (updates are hints, never the data itself).
 */
export function registerSseRoute(app: FastifyInstance, options: SseOptions): void {
  const open = new Set<() => void>();
  // Open streams would keep `close()` waiting forever; end them first.
  app.addHook('preClose', async () => {
    for (const end of [...open]) end();
  });
  app.get('/api/live', async (request, reply) => {
    if (!request.principal) throw unauthorized();
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
      'X-Content-Type-Options': 'nosniff',
    });
    raw.write('retry: 3000\n: connected\n\n');
    const unsubscribe = options.hub.subscribe((update) => {
      raw.write(`event: ${update.type}\ndata: ${JSON.stringify(update)}\n\n`);
    });
    const keepAlive = setInterval(() => raw.write(': keep-alive\n\n'), options.keepAliveMs);
    keepAlive.unref();
    const stop = () => {
      clearInterval(keepAlive);
      unsubscribe();
      open.delete(end);
    };
    const end = () => {
      stop();
      raw.end();
    };
    open.add(end);
    request.raw.on('close', stop);
    raw.on('error', stop);
  });
}
