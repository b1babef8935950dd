import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  defineEndpoint,
  defineEvent,
  definePlatform,
  MessageType,
  silentLogger,
  type Transport,
  topologyFromPlatform,
} from '@nimbus/core';
import { InProcessStateChangeNotifier, ResolutionStatus } from '@nimbus/message-store';
import { createSqlMessageStore } from '@nimbus/message-store-sql';
import { createResolver, type Resolver } from '@nimbus/resolver';
import { createEndpointHost, createPublisher, createSubscriber } from '@nimbus/sdk';
import { createMemoryTransport } from '@nimbus/transport-memory';
import { createSqlTransport } from '@nimbus/transport-sql';
import {
  createSqlIdentityStore,
  createWebApp,
  DEFAULT_ADMIN_EMAIL,
  DEFAULT_ADMIN_PASSWORD,
} from '@nimbus/webapp';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SEEDED_ADMIN_ENV } from './support/seeded-admin.js';

// Issue 12.3 end to end: the WebApp accepts an action on what the (lagging) store shows; the engine holding the
// session decides, refuses stale actions without running the handler, and the refusal reaches history and audit.

const Changed = defineEvent('CustomerChanged', {
  schema: z.object({ customerId: z.string(), n: z.number().int() }),
  sessionKey: 'customerId',
});
const platform = definePlatform([
  defineEndpoint('Crm', { produces: [Changed] }),
  defineEndpoint('Erp', { consumes: [Changed] }),
]);
const processor = { maxConcurrentSessions: 2, acceptWaitMs: 100, sessionIdleTimeoutMs: 200 };

type Json = Record<string, unknown>;

async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false>): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

class Client {
  #cookies = new Map<string, string>();
  constructor(readonly url: string) {}
  async send(method: string, route: string, body?: unknown): Promise<{ status: number; body: Json }> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.#cookies.size > 0) headers.cookie = [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const csrf = this.#cookies.get('NimBus.Csrf');
    if (csrf && method !== 'GET') headers['x-csrf-token'] = csrf;
    const response = await fetch(`${this.url}${route}`, {
      method,
      headers,
      body: method === 'GET' ? undefined : JSON.stringify(body ?? {}),
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const at = pair!.indexOf('=');
      this.#cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as Json) : {} };
  }
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function stack(kind: 'memory' | 'sqlite') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-authority-'));
  cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
  const transport: Transport =
    kind === 'memory'
      ? createMemoryTransport()
      : await createSqlTransport(
          { dialect: 'sqlite', path: path.join(dir, 'transport.db') },
          { lockDurationMs: 5_000 },
        );
  cleanups.push(() => transport.close());
  await transport.applyTopology(topologyFromPlatform(platform));
  const filename = path.join(dir, 'store.db');
  const notifier = new InProcessStateChangeNotifier({ logger: silentLogger });
  const store = await createSqlMessageStore({
    dialect: 'sqlite',
    filename,
    env: {},
    retentionSweep: false,
    notifier,
  });
  cleanups.push(() => store.close());
  const identityStore = createSqlIdentityStore({ dialect: 'sqlite', filename });
  cleanups.push(() => identityStore.close());
  const handled: number[] = [];
  const failing = new Set<number>([1, 2]);
  const subscriber = createSubscriber().on(Changed, (event) => {
    handled.push(event.n);
    if (failing.has(event.n)) throw new Error(`ERP refused change ${event.n}`);
  });
  const erp = createEndpointHost({
    platform,
    endpoint: 'Erp',
    transport,
    subscriber,
    logger: silentLogger,
    processor,
  });
  await erp.start();
  cleanups.push(() => erp.stop());
  let resolver: Resolver | null = null;
  const startResolver = async () => {
    resolver = createResolver({ transport, store, logger: silentLogger, options: processor });
    await resolver.start();
  };
  const stopResolver = async () => {
    await resolver?.stop();
    resolver = null;
  };
  cleanups.push(stopResolver);
  await startResolver();
  const webApp = await createWebApp({
    store,
    identityStore,
    transport,
    platform,
    notifier,
    logger: silentLogger,
    env: SEEDED_ADMIN_ENV,
    uiDistDir: '/nonexistent-ui-dist',
    sseKeepAliveMs: 60_000,
  });
  cleanups.push(() => webApp.close());
  const admin = new Client(await webApp.listen({ host: '127.0.0.1', port: 0 }));
  const login = await admin.send('POST', '/account/login', {
    email: DEFAULT_ADMIN_EMAIL,
    password: DEFAULT_ADMIN_PASSWORD,
  });
  expect(login.status).toBe(200);
  const crm = createPublisher({ transport, endpoint: 'Crm', platform });
  const rowOf = (eventId: string) => store.getEvent({ endpointId: 'Erp', eventId });
  const rows = async () =>
    (await store.getEventsByFilter({ filter: { endpointId: 'Erp' }, continuationToken: null, maxItems: 50 }))
      .events;
  return { transport, store, handled, failing, crm, admin, rowOf, rows, startResolver, stopResolver };
}

describe.each(['memory', 'sqlite'] as const)('operator actions decided by the bus [%s transport]', (kind) => {
  it('skip, then resubmits of the same event while the store lags: the event never runs again and stays Skipped; refusals reach history and audit', async () => {
    const s = await stack(kind);
    await s.crm.publish(Changed, { customerId: 'c-1', n: 1 });
    const failedA = await waitFor('event 1 Failed', async () => {
      const row = (await s.rows()).find((r) => r.resolutionStatus === ResolutionStatus.Failed);
      return row ?? null;
    });
    const a = failedA.eventId;
    // The store now lags the bus: the Resolver is down, so every action below sees event 1 as Failed.
    await s.stopResolver();
    const act = (action: string) =>
      s.admin.send('POST', `/api/endpoints/Erp/events/${a}/${action}`, { comment: `${action} by test` });
    expect((await act('skip')).status).toBeLessThan(300);
    await waitFor('the skip handled', async () => (await s.transport.counts('Erp')).active === 0);
    await s.crm.publish(Changed, { customerId: 'c-1', n: 2 }); // a later event fails and blocks the session
    await waitFor('event 2 handled', async () => s.handled.includes(2));
    // Repeated and concurrent resubmits of the skipped event, all accepted by the WebApp (the store says Failed).
    const answers = await Promise.all([act('resubmit'), act('resubmit'), act('skip')]);
    for (const answer of answers) expect(answer.status).toBeLessThan(300);
    await waitFor('the actions handled', async () => (await s.transport.counts('Erp')).active === 0);
    await s.startResolver();
    await waitFor('the refusals recorded', async () => {
      const history = await s.store.getEventHistory(a);
      return history.filter((m) => m.messageType === MessageType.RefusalResponse).length === 3;
    });
    expect(s.handled).toEqual([1, 2]);
    expect((await s.rowOf(a))?.resolutionStatus).toBe(ResolutionStatus.Skipped);
    const history = await s.store.getEventHistory(a);
    const refusal = history.find((m) => m.messageType === MessageType.RefusalResponse);
    expect(refusal?.messageContent.errorContent?.errorText).toContain('does not await an operator');
    const audits = (await s.admin.send('GET', `/api/endpoints/Erp/events/${a}/audits`))
      .body as unknown as Json[];
    const refused = audits.filter((row) => row.auditType === 'Refused');
    expect(refused).toHaveLength(3);
    expect(String(refused[0]?.comment)).toContain(`Event '${a}' cannot be`);
    // Event 2 still blocks its session and is Failed; an action on it is accepted by the bus.
    const b = (await s.rows()).find((r) => r.eventId !== a)!;
    expect(b.resolutionStatus).toBe(ResolutionStatus.Failed);
    s.failing.delete(2);
    expect(
      (await s.admin.send('POST', `/api/endpoints/Erp/events/${b.eventId}/resubmit`, {})).status,
    ).toBeLessThan(300);
    await waitFor(
      'event 2 Completed',
      async () => (await s.rowOf(b.eventId))?.resolutionStatus === ResolutionStatus.Completed,
    );
    expect(s.handled).toEqual([1, 2, 2]);
    expect((await s.rowOf(a))?.resolutionStatus).toBe(ResolutionStatus.Skipped);
  });
});
