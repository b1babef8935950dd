import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

export const UI_NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>NimBus WebApp</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 42rem; margin: 3rem auto; line-height: 1.5">
<h1>NimBus operator UI is not built</h1>
<p>The API is running (see <a href="/api/docs/">/api/docs</a> and <a href="/openapi.json">/openapi.json</a>),
but the browser UI has not been built in this installation.</p>
<p>Build it with <code>npm run build:ui -w @nimbus/webapp</code> and restart the server.</p>
</body></html>`;

/** True for paths the SPA does not own: API, account actions, docs and assets. */
function isServerPath(url: string): boolean {
  return /^\/(api|openapi\.json|assets|metrics|healthz|readyz)(\/|$|\?)/.test(url);
}

/**
 * Serves the built React UI from `distDir` with an `index.html` fallback for client routes. Without a
 * build, browser paths get a page that says how to build it; API paths keep their JSON 404s.
 */
export async function serveUi(app: FastifyInstance, distDir: string): Promise<{ built: boolean }> {
  const indexFile = path.join(distDir, 'index.html');
  const built = existsSync(indexFile);
  if (built) {
    await app.register(fastifyStatic, {
      root: distDir,
      index: false,
      wildcard: false,
      setHeaders: (res, filePath) => {
        res.setHeader(
          'Cache-Control',
          filePath.includes(`${path.sep}assets${path.sep}`)
            ? 'public, max-age=31536000, immutable'
            : 'no-cache',
        );
      },
    });
  }
  const indexHtml = () => (built ? readFileSync(indexFile, 'utf8') : UI_NOT_BUILT_PAGE);
  app.setNotFoundHandler((request, reply) => {
    const url = request.url;
    if (request.method !== 'GET' || isServerPath(url)) {
      return reply
        .code(404)
        .send({ error: 'NotFound', message: `No route for ${request.method} ${url.split('?')[0]}` });
    }
    return reply
      .code(built ? 200 : 503)
      .header('Cache-Control', 'no-cache, no-store, must-revalidate')
      .type('text/html; charset=utf-8')
      .send(indexHtml());
  });
  return { built };
}
