import { silentLogger, topologyFromPlatform } from '@nimbus/core';
import { InProcessStateChangeNotifier, withStateChangeNotifications } from '@nimbus/message-store';
import { MemoryTransport } from '@nimbus/transport-memory';
import {
  createWebApp,
  DEFAULT_ADMIN_EMAIL,
  DEFAULT_ADMIN_PASSWORD,
  DEFAULT_SIGN_IN_LIMITS,
  type WebApp,
  type WebAppOptions,
} from '../../src/index.js';
import { ApiClient } from './api-client.js';
import { samplePlatform } from './sample-platform.js';
import { seedErp } from './seed.js';
import { SEEDED_ADMIN_ENV } from './seeded-admin.js';
import type { StoreFactory, StoreSet } from './store-factories.js';

export const READER = { email: 'reader@example.test', password: 'Reader!Pass1' };
export const CONTRIBUTOR = { email: 'contrib@example.test', password: 'Contrib!Pass1' };

export interface Harness {
  readonly url: string;
  readonly webApp: WebApp;
  readonly stores: StoreSet;
  readonly transport: MemoryTransport;
  readonly notifier: InProcessStateChangeNotifier;
  /** Signed in as the bootstrap admin (site Owner). */
  readonly admin: ApiClient;
  newClient(): ApiClient;
  signedIn(user: { email: string; password: string }): Promise<ApiClient>;
  close(): Promise<void>;
}

/** A real WebApp on 127.0.0.1:0 over real stores, with the Erp endpoint seeded and a Reader and a Contributor. */
export async function startHarness(
  factory: StoreFactory,
  /** `signIn: false`: the admin client is not signed in and no users are created (an admin who must first change the password). */
  options: { uiDistDir?: string; webApp?: Partial<WebAppOptions>; signIn?: boolean } = {},
): Promise<Harness> {
  const stores = await factory.create();
  const transport = new MemoryTransport();
  await transport.applyTopology(topologyFromPlatform(samplePlatform));
  const notifier = new InProcessStateChangeNotifier({ logger: silentLogger });
  const webApp = await createWebApp({
    // The store is the one emitter: the WebApp's own writes reach the SSE stream through it.
    store: withStateChangeNotifications(stores.store, notifier, { logger: silentLogger }),
    identityStore: stores.identityStore,
    transport,
    platform: samplePlatform,
    notifier,
    logger: silentLogger,
    env: SEEDED_ADMIN_ENV,
    uiDistDir: options.uiDistDir ?? '/nonexistent-ui-dist',
    sseKeepAliveMs: 60_000,
    // Suites sign in many times from 127.0.0.1; the sign-in tests set their own limits.
    signInLimits: { perAddress: { ...DEFAULT_SIGN_IN_LIMITS.perAddress, max: 10_000 } },
    ...options.webApp,
  });
  const url = await webApp.listen();
  await seedErp(stores.store);
  const admin = new ApiClient(url);
  if (options.signIn !== false) await admin.login(DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD);
  for (const [user, role] of options.signIn === false
    ? []
    : ([
        [READER, 'Reader'],
        [CONTRIBUTOR, 'Contributor'],
      ] as const)) {
    const created = await admin.post('/api/users', { ...user, siteRole: role });
    if (created.status !== 201) throw new Error(`user setup failed: ${JSON.stringify(created.body)}`);
  }
  return {
    url,
    webApp,
    stores,
    transport,
    notifier,
    admin,
    newClient: () => new ApiClient(url),
    signedIn: async (user) => {
      const client = new ApiClient(url);
      await client.login(user.email, user.password);
      return client;
    },
    close: async () => {
      await webApp.close();
      await transport.close();
      await stores.cleanup();
    },
  };
}
