import {
  Header,
  ManualClock,
  type PublishRequest,
  silentLogger,
  type Transport,
  TransportError,
  TransportErrorCode,
} from '@nimbus/core';
import { conformanceMessage } from '@nimbus/reliability/conformance';
import { createMemoryTransport } from '@nimbus/transport-memory';
import { describe, expect, it } from 'vitest';
import {
  createOutboxTransport,
  createSqliteOutboxStore,
  isOutboxTransport,
  MemoryOutboxStore,
  OutboxDispatcher,
  OutboxDispatcherConfigurationError,
  withAmbientTransaction,
} from '../src/index.js';
import { tempSqlite } from './sqlite-fixture.js';

const TOPOLOGY = {
  endpoints: ['Crm', 'Erp'],
  routes: [{ source: 'Crm', eventTypeId: 'OrderPlaced', target: 'Erp' }],
};

async function setup() {
  const clock = new ManualClock();
  const transport = createMemoryTransport({ clock });
  await transport.applyTopology(TOPOLOGY);
  const outbox = new MemoryOutboxStore({ clock });
  return { clock, transport, outbox };
}

/** A transport whose publish can be made to fail per session; records what it sent. */
function recordingTransport(inner: Transport, failSessions: Set<string>) {
  const sent: PublishRequest[] = [];
  const transport = new Proxy(inner, {
    get(target, property) {
      if (property === 'publish') {
        return async (requests: readonly PublishRequest[]) => {
          for (const r of requests) {
            if (r.messages.some((m) => failSessions.has(m.sessionId))) {
              throw new TransportError(TransportErrorCode.ServiceUnavailable, 'broker down');
            }
          }
          sent.push(...requests);
          await target.publish(requests);
        };
      }
      const value = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { transport, sent };
}

describe('outbox transport decorator', () => {
  it('stores publishes in the outbox instead of sending, and marks itself as not dispatchable', async () => {
    const { transport, outbox } = await setup();
    const decorated = createOutboxTransport(transport, outbox);
    await decorated.publish([
      { source: 'Crm', messages: [conformanceMessage('s1'), conformanceMessage('s2')] },
    ]);
    expect(await outbox.pendingStats()).toMatchObject({ count: 2 });
    expect((await transport.counts('Erp')).active).toBe(0);
    expect(isOutboxTransport(decorated)).toBe(true);
    expect(isOutboxTransport(transport)).toBe(false);
    expect(decorated.name).toBe('memory+outbox');
    expect(await decorated.getTopology()).toEqual(await transport.getTopology());
    const handle = await decorated.schedule('Crm', conformanceMessage('s3'), new Date(Date.UTC(2030, 0, 1)));
    expect((await outbox.find(handle.id))?.enqueueAt).toEqual(new Date(Date.UTC(2030, 0, 1)));
    await expect(decorated.cancelScheduled(handle)).rejects.toThrow(/cannot be cancelled/);
  });

  it('joins the ambient SQLite transaction: a rollback loses the business row and the outbox row together', async () => {
    const sqlite = tempSqlite();
    try {
      const { transport } = await setup();
      const outbox = createSqliteOutboxStore(sqlite.db);
      await outbox.ensureTableExists();
      sqlite.db.exec('create table orders (id text primary key)');
      const decorated = createOutboxTransport(transport, outbox);
      const placeOrder = async (id: string, fail: boolean) => {
        sqlite.db.exec('begin');
        try {
          await withAmbientTransaction(sqlite.db, async () => {
            sqlite.db.prepare('insert into orders (id) values (?)').run(id);
            await decorated.publish([{ source: 'Crm', messages: [conformanceMessage(id)] }]);
            if (fail) throw new Error('validation failed after publish');
          });
          sqlite.db.exec('commit');
        } catch {
          sqlite.db.exec('rollback');
        }
      };
      await placeOrder('o1', false);
      await placeOrder('o2', true);
      expect(sqlite.db.prepare('select id from orders').all()).toEqual([{ id: 'o1' }]);
      expect((await outbox.getPending(10)).map((r) => r.sessionId)).toEqual(['o1']);
    } finally {
      sqlite.close();
    }
  });
});

describe('OutboxDispatcher', () => {
  it('refuses to be built without the real transport', async () => {
    const { transport, outbox } = await setup();
    expect(
      () => new OutboxDispatcher({ outbox, transport: createOutboxTransport(transport, outbox) }),
    ).toThrow(/outbox-decorated transport/);
    expect(() => new OutboxDispatcher({ outbox, transport: undefined as unknown as Transport })).toThrow(
      OutboxDispatcherConfigurationError,
    );
    expect(() => new OutboxDispatcher({ outbox, transport, batchSize: 0 })).toThrow(/batchSize/);
  });

  it('sends committed rows through the real transport in order and marks them dispatched', async () => {
    const { transport, outbox } = await setup();
    await outbox.storeBatch([
      { source: 'Crm', message: conformanceMessage('s1', '1') },
      { source: 'Crm', message: conformanceMessage('s1', '2') },
    ]);
    const dispatcher = new OutboxDispatcher({ outbox, transport, logger: silentLogger });
    expect(await dispatcher.dispatchPending()).toBe(2);
    expect(await dispatcher.dispatchPending()).toBe(0);
    expect((await outbox.pendingStats()).count).toBe(0);
    const peeked = await transport.peek('Erp', { max: 10 });
    expect(peeked.map((m) => m.body)).toEqual(['1', '2']);
    expect(peeked[0]?.headers[Header.From]).toBe('Crm');
  });

  it('holds back a failed session for the rest of the poll, sends other sessions, and retries later', async () => {
    const { transport: memory, outbox } = await setup();
    const failing = new Set(['s1']);
    const { transport, sent } = recordingTransport(memory, failing);
    await outbox.storeBatch([
      { source: 'Crm', message: conformanceMessage('s1', 'a1') },
      { source: 'Crm', message: conformanceMessage('s2', 'b1') },
      { source: 'Crm', message: conformanceMessage('s1', 'a2') },
    ]);
    const dispatcher = new OutboxDispatcher({ outbox, transport, logger: silentLogger });
    expect(await dispatcher.dispatchPending()).toBe(1);
    expect(sent.flatMap((r) => r.messages.map((m) => m.body))).toEqual(['b1']);
    failing.clear();
    expect(await dispatcher.dispatchPending()).toBe(2);
    expect(sent.flatMap((r) => r.messages.map((m) => m.body))).toEqual(['b1', 'a1', 'a2']);
  });

  it('runs in the background: polls, keeps going after errors, purges dispatched rows after the retention', async () => {
    const { clock, transport, outbox } = await setup();
    const dispatcher = new OutboxDispatcher({
      outbox,
      transport,
      pollIntervalMs: 1_000,
      retentionMs: 60_000,
      purgeIntervalMs: 30_000,
      clock,
      logger: silentLogger,
    });
    const first = await outbox.store({ source: 'Crm', message: conformanceMessage('s1') });
    dispatcher.start();
    await eventually(async () => (await outbox.find(first.id))?.dispatchedAt !== null);
    clock.advance(61_000);
    const second = await outbox.store({ source: 'Crm', message: conformanceMessage('s2') });
    await eventually(async () => (await outbox.find(first.id)) === null);
    expect((await outbox.find(second.id))?.dispatchedAt).not.toBeNull();
    await dispatcher.stop();
    expect(dispatcher.running).toBe(false);
  });
});

async function eventually(predicate: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await predicate()) return;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error('condition not reached');
}
