import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Authenticator } from '../auth/authenticator.js';
import type { Principal } from '../auth/principal.js';
import type { DocumentedRoute } from '../http/documented-route.js';
import { passwordChangeRequired, unauthorized } from '../http/http-error.js';
import { Role } from '../identity/roles.js';
import type { LiveUpdate, LiveUpdateHub } from './live-update-hub.js';
import type { StreamRegistry } from './stream-registry.js';

export interface SseOptions {
  readonly hub: LiveUpdateHub;
  readonly streams: StreamRegistry;
  readonly authenticator: Authenticator;
  /** Comment line sent this often so proxies keep the stream open; the credential is re-checked then. */
  readonly keepAliveMs: number;
}

/** One event of the stream: its SSE `event:` name is `type`, its `data:` this object as JSON. */
export const LiveUpdateDto = z.discriminatedUnion('type', [
  z.object({ type: z.literal('endpointupdate'), endpointId: z.string() }),
  z.object({ type: z.literal('heartbeatupdate'), endpointId: z.string() }),
  z.object({ type: z.literal('servicehealthupdate'), serviceId: z.string() }),
  z.object({ type: z.literal('resync') }).describe('updates may have been missed: re-read everything shown'),
  z.object({
    type: z.literal('bulkprogress'),
    jobId: z.string(),
    endpointId: z.string(),
    endpointIds: z
      .array(z.string())
      .readonly()
      .describe('every endpoint the job acts on: only users who may read all of them hear of it'),
    processed: z.number(),
    total: z.number(),
    done: z.boolean(),
  }),
]);

// The stream's schema and the hub's type are one: a new kind of update cannot miss the document.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const _liveUpdateDocumented: Same<z.output<typeof LiveUpdateDto>, LiveUpdate> = true;
void _liveUpdateDocumented;

export const LIVE_ROUTE_DOC: DocumentedRoute = {
  method: 'GET',
  url: '/api/live',
  tag: 'Live',
  summary:
    'Server-Sent Events: hints that an endpoint, heartbeat, service or bulk job changed (only for endpoints you may read)',
  security: 'session',
  success: {
    status: 200,
    description:
      'text/event-stream; each event is named by its `type` and carries the update as JSON data. The stream ends when the session or token ends.',
    contentType: 'text/event-stream',
    schema: LiveUpdateDto,
  },
};

/** Only what the caller may read: endpoint updates and bulk progress for endpoints it holds Reader on. */
export function mayReceive(principal: Principal, update: LiveUpdate): boolean {
  if ('endpointIds' in update) return update.endpointIds.every((id) => principal.has(Role.Reader, id));
  return 'endpointId' in update ? principal.has(Role.Reader, update.endpointId) : true;
}

/**
 * `GET /api/live`: Server-Sent Events. Each event's name is the update type and its data the JSON update;
 * the browser re-reads what changed (updates are hints, never the data itself).
 */
export function registerSseRoute(app: FastifyInstance, options: SseOptions): void {
  // Open streams would keep `close()` waiting forever; end them first.
  app.addHook('preClose', async () => options.streams.closeAll());
  app.get('/api/live', async (request, reply) => {
    let principal = request.principal;
    if (!principal) throw unauthorized();
    if (principal.user.mustChangePassword) throw passwordChangeRequired();
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
      if (principal && mayReceive(principal, update))
        raw.write(`event: ${update.type}\ndata: ${JSON.stringify(update)}\n\n`);
    });
    const keepAlive = setInterval(async () => {
      // A session ended or a token revoked in another process is noticed here.
      const current = await options.authenticator.principalOf(request).catch(() => null);
      if (!current) return end();
      principal = current;
      raw.write(': keep-alive\n\n');
    }, options.keepAliveMs);
    keepAlive.unref();
    const stop = () => {
      clearInterval(keepAlive);
      unsubscribe();
      forget();
    };
    const end = () => {
      stop();
      raw.end();
    };
    const forget = options.streams.add({ principal, end });
    request.raw.on('close', stop);
    raw.on('error', stop);
  });
}
