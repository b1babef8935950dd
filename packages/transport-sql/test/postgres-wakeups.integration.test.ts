import { silentLogger } from '@nimbus/core';
import {
  createTemporaryDatabase,
  shouldRunPostgresSuite,
  type TemporaryDatabase,
} from '@nimbus/testing/postgres';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSqlTransport, type SqlTransport } from '../src/index.js';
import { event, topology } from './fixtures.js';

const runPg = await shouldRunPostgresSuite('transport-sql PostgreSQL wake-ups');

describe.runIf(runPg)('SQL transport on PostgreSQL: LISTEN/NOTIFY wake-ups', () => {
  let database: TemporaryDatabase;
  let opened: SqlTransport[] = [];
  let schemas = 0;
  beforeAll(async () => {
    database = await createTemporaryDatabase('nimbus_transport_wake');
  });
  afterEach(async () => {
    for (const transport of opened) await transport.close();
    opened = [];
  });
  afterAll(async () => {
    await database?.drop();
  });

  /** Two transports on one schema, as two processes would be; polling is slowed so only NOTIFY can be fast. */
  async function pair(): Promise<[SqlTransport, SqlTransport]> {
    const schema = `wake_${++schemas}`;
    const open = () =>
      createSqlTransport(
        { dialect: 'postgres', connectionString: database.url, schema, poolSize: 2 },
        { pollIntervalMs: 10_000, logger: silentLogger },
      );
    const consumer = await open();
    const publisher = await open();
    opened.push(consumer, publisher);
    await publisher.applyTopology(topology);
    return [consumer, publisher];
  }

  async function acceptWakesWithin(consumer: SqlTransport, publisher: SqlTransport, sessionId: string) {
    const started = Date.now();
    const waiting = consumer.acceptSession('Erp', { waitMs: 8_000 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await publisher.publish([{ source: 'Crm', messages: [event(sessionId)] }]);
    const session = await waiting;
    expect(session?.sessionId).toBe(sessionId);
    await session?.release();
    return Date.now() - started;
  }

  it('a publish in another transport wakes a waiting accept through NOTIFY', async () => {
    const [consumer, publisher] = await pair();
    expect(await acceptWakesWithin(consumer, publisher, 'n1')).toBeLessThan(3_000);
  });

  it('a release that leaves work in the session wakes an accept waiting in another transport', async () => {
    const [consumer, holderSide] = await pair();
    await holderSide.publish([{ source: 'Crm', messages: [event('r1'), event('r1')] }]);
    const held = await holderSide.acceptSession('Erp', { waitMs: 2_000 });
    expect(held?.sessionId).toBe('r1');
    const [first] = await held!.receive({ max: 1, waitMs: 1_000 });
    await held!.complete(first!);
    // The other transport waits for a session; the only one with work is held, so it sleeps until told.
    const waiting = consumer.acceptSession('Erp', { waitMs: 8_000 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = Date.now();
    await held!.release();
    const next = await waiting;
    expect(next?.sessionId).toBe('r1');
    expect(Date.now() - started).toBeLessThan(3_000);
    const [second] = await next!.receive({ max: 1, waitMs: 1_000 });
    expect(second?.sequence).toBe(2);
    await next!.complete(second!);
    await next!.release();
  });

  it('wake-ups survive the LISTEN connection being killed (reconnect, then NOTIFY again)', async () => {
    const [consumer, publisher] = await pair();
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      const killed = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN%'`,
      );
      expect(killed.rowCount).toBeGreaterThan(0);
    } finally {
      await admin.end();
    }
    // The listener reconnects with back-off (100 ms first); give it a moment, then NOTIFY must work again.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await acceptWakesWithin(consumer, publisher, 'n2')).toBeLessThan(3_000);
  });

  it('coalesced NOTIFYs still wake every waiter: a burst of publishes to many sessions is all accepted', async () => {
    const [consumer, publisher] = await pair();
    const accepted: string[] = [];
    const loops = [0, 1, 2].map(async () => {
      for (;;) {
        const session = await consumer.acceptSession('Erp', { waitMs: 3_000 });
        if (!session) return;
        accepted.push(session.sessionId);
        for (const message of await session.receive({ max: 10, waitMs: 0 })) await session.complete(message);
        await session.release();
      }
    });
    for (let i = 0; i < 20; i++)
      await publisher.publish([{ source: 'Crm', messages: [event(`burst-${i}`)] }]);
    await Promise.all(loops);
    expect(new Set(accepted).size).toBe(20);
  });
});
