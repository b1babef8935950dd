import { silentLogger, topologyFromPlatform } from '@nimbus/core';
import { platform } from '@nimbus/example-crm-erp';
import type { NimBusMessageStore } from '@nimbus/message-store';
import { createMemoryTransport, type MemoryTransport } from '@nimbus/transport-memory';
import { createMemoryIdentityStore, createWebApp } from '@nimbus/webapp';
import { SEEDED_ADMIN_ENV } from './seeded-admin.js';

export interface TestWebApp {
  readonly url: string;
  /** The WebApp's transport (memory, the sample platform's topology), to see what an action sent. */
  readonly transport: MemoryTransport;
  /** Closes the WebApp and its transport (not the store, which the caller owns). */
  close(): Promise<void>;
}

/** A listening WebApp over `store` for the sample platform, with the seeded admin, for remote CLI tests. */
export async function startTestWebApp(store: NimBusMessageStore): Promise<TestWebApp> {
  const transport = createMemoryTransport();
  await transport.applyTopology(topologyFromPlatform(platform));
  const app = await createWebApp({
    store,
    identityStore: createMemoryIdentityStore(),
    transport,
    platform,
    logger: silentLogger,
    env: SEEDED_ADMIN_ENV,
    uiDistDir: '/nonexistent',
  });
  const url = await app.listen();
  return {
    url,
    transport,
    close: async () => {
      await app.close();
      await transport.close();
    },
  };
}
