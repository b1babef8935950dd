import net from 'node:net';
import type { Logger } from '@nimbus/core';
import { topologyFromPlatform } from '@nimbus/core';
import { createTemporaryDatabase, shouldRunPostgresSuite } from '@nimbus/testing/postgres';
import { MemoryTransport } from '@nimbus/transport-memory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqlIdentityStore, createWebApp, DEFAULT_ADMIN_EMAIL, type WebApp } from '../src/index.js';
import { ApiClient } from './support/api-client.js';
import { READER } from './support/harness.js';
import { samplePlatform } from './support/sample-platform.js';

const runPg = await shouldRunPostgresSuite('WebApp /readyz detail on PostgreSQL');
const ADMIN_PASSWORD = 'Readyz!Admin123';

/** A TCP relay to PostgreSQL that the test can take away: the store's next connection is refused. */
async function startRelay(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => s.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    cut: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

describe.runIf(runPg)('/readyz while the database is unreachable (PostgreSQL through a relay)', () => {
  const logged: string[] = [];
  const logger: Logger = {
    debug: () => {},
    info: () => {},
    warn: (fields, message) => void logged.push(`${message} ${JSON.stringify(fields)}`),
    error: (fields, message) => void logged.push(`${message} ${JSON.stringify(fields)}`),
  };
  let app: WebApp;
  let url: string;
  let relay: Awaited<ReturnType<typeof startRelay>>;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const { createSqlMessageStore } = await import('@nimbus/message-store-sql');
    const database = await createTemporaryDatabase('nimbus_webapp_readyz');
    const direct = new URL(database.url);
    relay = await startRelay({ host: direct.hostname, port: Number(direct.port || 5432) });
    const relayed = new URL(database.url);
    relayed.hostname = '127.0.0.1';
    relayed.port = String(relay.port);
    const store = await createSqlMessageStore({
      dialect: 'postgres',
      connectionString: relayed.toString(),
      env: {},
      retentionSweep: false,
    });
    // Sign-in keeps working: the identity tables are reached directly, only the message store loses its database.
    const identityStore = createSqlIdentityStore({ dialect: 'postgres', connectionString: database.url });
    const transport = new MemoryTransport();
    await transport.applyTopology(topologyFromPlatform(samplePlatform));
    app = await createWebApp({
      store,
      identityStore,
      transport,
      platform: samplePlatform,
      logger,
      env: { NIMBUS_IDENTITY_ADMIN_PASSWORD: ADMIN_PASSWORD },
      uiDistDir: '/nonexistent-ui-dist',
    });
    url = await app.listen();
    cleanup = async () => {
      await app.close();
      await transport.close();
      await store.close().catch(() => {});
      await identityStore.close();
      await database.drop();
    };
  }, 60_000);

  afterAll(async () => cleanup?.());

  it('anonymous callers get the reasons without host or port; a site Owner and the log get the full detail', async () => {
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    const admin = new ApiClient(url);
    await admin.login(DEFAULT_ADMIN_EMAIL, ADMIN_PASSWORD);
    await admin.post('/api/users', { ...READER, siteRole: 'Reader' });
    const reader = new ApiClient(url);
    await reader.login(READER.email, READER.password);
    await relay.cut();
    const address = `127.0.0.1:${relay.port}`;

    // The first check after the cut may see the open connection end; the next ones a refused connect naming it.
    await expect
      .poll(async () => JSON.stringify((await admin.get('/readyz')).body), { timeout: 20_000 })
      .toContain(address);

    const anonymous = await fetch(`${url}/readyz`);
    expect(anonymous.status).toBe(503);
    const text = await anonymous.text();
    const body = JSON.parse(text) as { checks: { store: { ready: boolean; reason: string } } };
    expect(body.checks.store.ready).toBe(false);
    expect(body.checks.store.reason).toMatch(/^store: /);
    expect(body.checks.store.reason).toContain('ECONNREFUSED');
    expect(text).not.toContain('127.0.0.1');
    expect(text).not.toContain(String(relay.port));

    const asReader = await reader.get('/readyz');
    expect(asReader.status).toBe(503);
    expect(JSON.stringify(asReader.body)).not.toContain(address);

    const asOwner = await admin.get('/readyz');
    expect(asOwner.status).toBe(503);
    expect(JSON.stringify(asOwner.body)).toContain(`ECONNREFUSED ${address}`);
    expect(logged.some((line) => line.startsWith('WebApp not ready') && line.includes(address))).toBe(true);
  });
});
