// A small adapter process for the crash test. Modes:
//   commit   — commits an order row and its outbox row in one SQLite transaction, reports, then waits to be killed;
//   dispatch — sends the pending row, lets the consumer handle it, then dies (SIGKILL) before marking it dispatched;
//   restart  — a fresh start: dispatches what is pending and consumes; prints what happened as JSON.
import { Header, type PublishRequest, silentLogger, type Transport, uuidv7 } from '@nimbus/core';
import {
  createInbox,
  createSqliteInboxStore,
  createSqliteOutboxStore,
  OutboxDispatcher,
  type OutboxStore,
} from '@nimbus/reliability';
import { createMemoryTransport } from '@nimbus/transport-memory';
import Database from 'better-sqlite3';

const [mode, file] = process.argv.slice(2);
if (!mode || !file) throw new Error('usage: crash-adapter <commit|dispatch|restart> <sqlite file>');

const db = new Database(file);
db.pragma('journal_mode = WAL');
db.exec('create table if not exists orders (id text primary key, total integer not null)');
db.exec('create table if not exists handled (message_id text not null, handled_at integer not null)');
const outbox = createSqliteOutboxStore(db);
await outbox.ensureTableExists();

if (mode === 'commit') {
  const orderId = 'order-1';
  db.transaction(() => {
    db.prepare('insert into orders (id, total) values (?, ?)').run(orderId, 42);
    outbox.storeBatchSync(db, [
      {
        source: 'Crm',
        message: {
          messageId: uuidv7(),
          sessionId: orderId,
          correlationId: orderId,
          headers: {
            [Header.To]: 'OrderPlaced',
            [Header.EventTypeId]: 'OrderPlaced',
            [Header.MessageType]: 'EventRequest',
          },
          body: JSON.stringify({ orderId, total: 42 }),
        },
      },
    ]);
  })();
  process.stdout.write('committed\n');
  setInterval(() => undefined, 60_000); // wait for SIGKILL
} else {
  const transport = createMemoryTransport();
  await transport.applyTopology({
    endpoints: ['Crm', 'Erp'],
    routes: [{ source: 'Crm', eventTypeId: 'OrderPlaced', target: 'Erp' }],
  });
  let published = 0;
  const counting: Transport = new Proxy(transport, {
    get(target, property) {
      if (property === 'publish') {
        return async (requests: readonly PublishRequest[]) => {
          await target.publish(requests);
          published += requests.reduce((n, r) => n + r.messages.length, 0);
        };
      }
      const value = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const inbox = createInbox({ store: createSqliteInboxStore(db), logger: silentLogger });
  let handled = 0;
  let duplicates = 0;

  /** The Erp consumer: inbox check → handler (records a row) → inbox record → complete. */
  const consumeAll = async () => {
    for (;;) {
      const session = await transport.acceptSession('Erp', { waitMs: 50 });
      if (!session) return;
      for (const message of await session.receive({ max: 10, waitMs: 50 })) {
        if ((await inbox.check('Erp', message.messageId)) === 'duplicate') {
          duplicates += 1;
        } else {
          db.prepare('insert into handled (message_id, handled_at) values (?, ?)').run(
            message.messageId,
            Date.now(),
          );
          handled += 1;
          await inbox.record('Erp', message.messageId);
        }
        await session.complete(message);
      }
      await session.release();
    }
  };

  const store: OutboxStore =
    mode === 'dispatch'
      ? Object.assign(Object.create(outbox) as OutboxStore, {
          getPending: (n: number) => outbox.getPending(n),
          markAsDispatched: async () => {
            await consumeAll();
            process.kill(process.pid, 'SIGKILL'); // dies after send and consume, before the checkpoint
            return 0;
          },
        })
      : outbox;
  const dispatcher = new OutboxDispatcher({ outbox: store, transport: counting, logger: silentLogger });
  const first = await dispatcher.dispatchPending();
  const second = await dispatcher.dispatchPending();
  await consumeAll();
  const pending = (await outbox.pendingStats()).count;
  process.stdout.write(`${JSON.stringify({ first, second, published, handled, duplicates, pending })}\n`);
  db.close();
}
