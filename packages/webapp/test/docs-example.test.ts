import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { silentLogger } from '@nimbus/core';
import { createMemoryMessageStore, InProcessStateChangeNotifier } from '@nimbus/message-store';
import { MemoryTransport } from '@nimbus/transport-memory';
import { expect, it } from 'vitest';
import { createSqlIdentityStore, createWebApp } from '../src/index.js';

it('docs/webapp.md example: start the WebApp and sign in', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-docs-'));
  // --- example start ---
  // The store tells the notifier after each committed write (the Resolver's and the WebApp's).
  const notifier = new InProcessStateChangeNotifier();
  const webApp = await createWebApp({
    store: createMemoryMessageStore({ notifier }),
    transport: new MemoryTransport(),
    identityStore: createSqlIdentityStore({ dialect: 'sqlite', filename: path.join(dir, 'nimbus.db') }),
    notifier,
    logger: silentLogger,
    // Default: process.env (NIMBUS_IDENTITY_ADMIN_EMAIL / NIMBUS_IDENTITY_ADMIN_PASSWORD). Without a password there,
    // admin@local gets Local!Admin123 and must choose a new one at the first sign-in.
    env: { NIMBUS_IDENTITY_ADMIN_PASSWORD: 'Example!Admin-Passphrase-1' },
  });
  const url = await webApp.listen({ host: '127.0.0.1', port: 0 });

  const login = await fetch(`${url}/account/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@local', password: 'Example!Admin-Passphrase-1' }),
  });
  const cookies = login.headers.getSetCookie().map((c) => c.split(';')[0] ?? '');
  const csrf = cookies.find((c) => c.startsWith('NimBus.Csrf='))!.slice('NimBus.Csrf='.length);
  const endpoints = await fetch(`${url}/api/endpoints`, { headers: { cookie: cookies.join('; ') } });
  // State-changing calls also send: { 'x-csrf-token': csrf }
  // --- example end ---
  expect(login.status).toBe(200);
  expect(csrf.length).toBeGreaterThan(20);
  expect(endpoints.status).toBe(200);
  await webApp.close();
  fs.rmSync(dir, { recursive: true, force: true });
});
