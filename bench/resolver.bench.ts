// Resolver throughput: messages/s from the Resolver input (memory transport) into each store provider.
// Every event contributes two messages (the request copy and its outcome), so each message costs a history
// write plus a guarded status write. Bounded: each provider stops after BENCH_RESOLVER_SECONDS (default 15).
// Run: npm run bench:resolver   (env: BENCH_EVENTS, BENCH_PROVIDERS=memory,sqlite,postgres, NIMBUS_TEST_POSTGRES_URL)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// Workspace packages resolve to their TypeScript sources under the `source` export condition.
if (!process.execArgv.some((arg) => arg.includes('conditions=source'))) {
  const self = fileURLToPath(import.meta.url);
  const run = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', self], {
    stdio: 'inherit',
  });
  process.exit(run.status ?? 1);
}

const { Addresses, createEnvelope, encodeEnvelope, MessageType, silentLogger, uuidv7 } = await import(
  '@nimbus/core'
);
const { createMemoryMessageStore } = await import('@nimbus/message-store');
const { createResolver } = await import('@nimbus/resolver');
const { createMemoryTransport } = await import('@nimbus/transport-memory');
const { createTemporaryDatabase, postgresUnavailableReason } = await import('@nimbus/testing/postgres');

type Store = import('@nimbus/message-store').OpenMessageStore;
type TransportMessage = import('@nimbus/core').TransportMessage;

const EVENTS = Number(process.env.BENCH_EVENTS ?? 2000);
const SESSIONS = 64;
const BUDGET_MS = Number(process.env.BENCH_RESOLVER_SECONDS ?? 15) * 1000;
const PROVIDERS = (process.env.BENCH_PROVIDERS ?? 'memory,sqlite,postgres').split(',').map((p) => p.trim());
const BODY = JSON.stringify({ customer: 'x'.repeat(512) });
const EVENT_TYPE = 'Bench.CustomerChanged';

interface Provider {
  readonly name: string;
  open(): Promise<{ store: Store; dispose(): Promise<void> } | string>;
}

/** The SQL provider is loaded by name so the bench still runs (and says why) where it is not built yet. */
async function sqlStore(options: Record<string, unknown>): Promise<Store | string> {
  const sql = (await import('@nimbus/message-store-sql')) as Record<string, unknown>;
  const create = sql.createSqlMessageStore as ((o: Record<string, unknown>) => Promise<Store>) | undefined;
  if (typeof create !== 'function') return '@nimbus/message-store-sql has no createSqlMessageStore yet';
  return create({ ...options, retentionSweep: false, env: {} });
}

const providers: Provider[] = [
  {
    name: 'memory',
    async open() {
      const store = createMemoryMessageStore({ env: {} });
      return { store, dispose: () => store.close() };
    },
  },
  {
    name: 'sqlite',
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'nimbus-resolver-bench-'));
      const store = await sqlStore({ dialect: 'sqlite', filename: join(dir, 'store.db') });
      if (typeof store === 'string') return store;
      return {
        store,
        async dispose() {
          await store.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 'postgres',
    async open() {
      const unavailable = await postgresUnavailableReason();
      if (unavailable) return `PostgreSQL unreachable: ${unavailable}`;
      const db = await createTemporaryDatabase('nimbus_resolver_bench');
      const store = await sqlStore({ dialect: 'postgres', connectionString: db.url });
      if (typeof store === 'string') {
        await db.drop();
        return store;
      }
      return {
        store,
        async dispose() {
          await store.close();
          await db.drop();
        },
      };
    },
  },
];

function traffic(): TransportMessage[][] {
  const perEvent: TransportMessage[][] = [];
  for (let i = 0; i < EVENTS; i++) {
    const request = createEnvelope({
      messageId: uuidv7(),
      to: 'Billing',
      from: 'Crm',
      sessionId: `customer-${i % SESSIONS}`,
      messageType: MessageType.EventRequest,
      eventId: uuidv7(),
      eventTypeId: EVENT_TYPE,
      content: { eventContent: { eventTypeId: EVENT_TYPE, eventJson: BODY }, errorContent: null },
    });
    const outcome = {
      ...request,
      messageId: uuidv7(),
      to: Addresses.resolver,
      from: 'Billing',
      messageType: MessageType.ResolutionResponse,
      parentMessageId: request.messageId,
      processingTimeMs: 3,
    };
    perEvent.push([encodeEnvelope(request), encodeEnvelope(outcome)]);
  }
  return perEvent;
}

async function run(provider: Provider): Promise<string> {
  const opened = await provider.open();
  if (typeof opened === 'string') return `${provider.name.padEnd(9)} skipped: ${opened}`;
  const transport = createMemoryTransport({ maxBatchBytes: 64 * 1024 * 1024 });
  await transport.applyTopology({ endpoints: ['Crm', 'Billing'], routes: [] });
  try {
    const events = traffic();
    // Request copies arrive on the Billing topic (To = source copies to the Resolver); outcomes To = Resolver.
    await transport.publish([{ source: 'Billing', messages: events.map(([request]) => request!) }]);
    await transport.publish([{ source: 'Billing', messages: events.map(([, outcome]) => outcome!) }]);
    const resolver = createResolver({
      transport,
      store: opened.store,
      logger: silentLogger,
      options: {
        maxConcurrentSessions: 32,
        receiveBatchSize: 32,
        sessionIdleTimeoutMs: 200,
        acceptWaitMs: 100,
      },
    });
    const total = EVENTS * 2;
    const started = performance.now();
    await resolver.start();
    const deadline = started + BUDGET_MS;
    const done = () => resolver.stats.recorded + resolver.stats.refused + resolver.stats.deadLettered;
    while (done() < total && performance.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    const elapsed = performance.now() - started;
    const handled = done();
    await resolver.stop();
    const rate = Math.round(handled / (elapsed / 1000));
    const note = handled < total ? ` (time budget hit after ${handled}/${total})` : '';
    const { deadLettered, rescheduled } = resolver.stats;
    return `${provider.name.padEnd(9)} ${String(rate).padStart(7)} msg/s  ${handled} messages in ${Math.round(elapsed)} ms, dead-lettered ${deadLettered}, rescheduled ${rescheduled}${note}`;
  } finally {
    await transport.close();
    await opened.dispose();
  }
}

console.log(
  `Resolver bench: ${EVENTS} events × 2 messages over ${SESSIONS} sessions, 32 concurrent sessions`,
);
for (const provider of providers.filter((p) => PROVIDERS.includes(p.name))) {
  console.log(await run(provider));
}
