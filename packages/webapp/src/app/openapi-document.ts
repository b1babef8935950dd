import { silentLogger } from '@nimbus/core';
import { createMemoryMessageStore } from '@nimbus/message-store';
import { createMemoryTransport } from '@nimbus/transport-memory';
import type { buildOpenApiDocument } from '../http/openapi.js';
import { createMemoryIdentityStore } from '../identity/memory-identity-store.js';
import { createWebApp } from './create-web-app.js';

export type WebAppOpenApiDocument = ReturnType<typeof buildOpenApiDocument>;

/**
 * The WebApp's OpenAPI document with every optional route on (`/metrics`, the storage hooks, single sign-on), built without
 * a server: a WebApp on in-memory stores that never listens. `@nimbus/client` generates its types from it.
 */
export async function webAppOpenApiDocument(): Promise<WebAppOpenApiDocument> {
  const transport = createMemoryTransport();
  const webApp = await createWebApp({
    store: createMemoryMessageStore(),
    transport,
    identityStore: createMemoryIdentityStore(),
    logger: silentLogger,
    env: {},
    uiDistDir: '/nonexistent-ui-dist',
    storageHookKey: 'document-only',
    metrics: { contentType: 'text/plain', scrape: async () => '' },
    // Listed only; the provider is discovered at the first sign-in, never here.
    oidc: {
      issuer: 'https://login.example/document-only',
      clientId: 'document-only',
      clientSecret: 'document-only',
      roleMapping: { claims: ['groups'], site: {} },
    },
  });
  try {
    return structuredClone(webApp.openApi);
  } finally {
    await webApp.server.close();
    await transport.close();
  }
}
