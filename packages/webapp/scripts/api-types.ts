/** The UI's API types, generated from the WebApp's own OpenAPI document with openapi-typescript. */
import { fileURLToPath } from 'node:url';
import { silentLogger } from '@nimbus/core';
import { createMemoryMessageStore } from '@nimbus/message-store';
import { MemoryTransport } from '@nimbus/transport-memory';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { createMemoryIdentityStore, createWebApp } from '../src/index.js';

export const API_TYPES_FILE = fileURLToPath(new URL('../ui/src/generated/api-types.ts', import.meta.url));

const HEADER = `// Generated from the WebApp's OpenAPI document by \`npm run generate:api-types -w @nimbus/webapp\`
// (every \`build:ui\` runs it; the file is not committed). Do not edit.
`;

/** The document of a WebApp with every optional route on (metrics, storage hooks), so the types cover all. */
export async function fullOpenApiDocument(): Promise<unknown> {
  const transport = new MemoryTransport();
  const webApp = await createWebApp({
    store: createMemoryMessageStore(),
    transport,
    identityStore: createMemoryIdentityStore(),
    logger: silentLogger,
    env: {},
    uiDistDir: '/nonexistent-ui-dist',
    storageHookKey: 'types-only',
    metrics: { contentType: 'text/plain', scrape: async () => '' },
  });
  try {
    return webApp.openApi;
  } finally {
    await webApp.server.close();
    await transport.close();
  }
}

export async function generateApiTypes(document: unknown): Promise<string> {
  const ast = await openapiTS(document as OpenAPI3, { silent: true });
  return HEADER + astToString(ast);
}
