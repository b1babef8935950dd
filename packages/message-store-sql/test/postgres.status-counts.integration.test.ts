import { MessageType, silentLogger } from '@nimbus/core';
import { ResolutionStatus, type StatusWrite } from '@nimbus/message-store';
import {
  createTemporaryDatabase,
  shouldRunPostgresSuite,
  type TemporaryDatabase,
} from '@nimbus/testing/postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqlMessageStore, type SqlMessageStore } from '../src/index.js';

const runPg = await shouldRunPostgresSuite('message-store-sql maintained status counts (PostgreSQL)');

const ENDPOINTS = ['ep-a', 'ep-b', 'ep-c'];
const WRITERS = 8;
const BATCHES = 25;

/**
 * What the Resolver sends per receive batch of one session: the request copies of new events (Pending, inserts),
 * the outcomes of the previous batch's events (Completed, updates), and one event whose request and outcome are
 * both in the batch (two writes of one key), over several endpoints.
 */
function resolverLikeBatch(writer: number, batch: number): StatusWrite[] {
  const event = (b: number, n: number) => `w${writer}-b${b}-e${n}`;
  const endpointOf = (b: number, n: number) => ENDPOINTS[(writer + b + n) % ENDPOINTS.length]!;
  const write = (b: number, n: number, status: ResolutionStatus, messageType: MessageType): StatusWrite => ({
    key: { endpointId: endpointOf(b, n), eventId: event(b, n), sessionId: `s${writer}` },
    status,
    content: { enqueuedTimeUtc: new Date(), messageType, lastMessageId: `${event(b, n)}-${status}` },
  });
  const writes: StatusWrite[] = [];
  for (let n = 0; n < 4; n++)
    writes.push(write(batch, n, ResolutionStatus.Pending, MessageType.EventRequest));
  if (batch > 0)
    for (let n = 0; n < 4; n++)
      writes.push(write(batch - 1, n, ResolutionStatus.Completed, MessageType.ResolutionResponse));
  writes.push(write(batch, 9, ResolutionStatus.Pending, MessageType.EventRequest));
  writes.push(write(batch, 9, ResolutionStatus.Completed, MessageType.ResolutionResponse));
  return writes;
}

describe.runIf(runPg)('PostgreSQL maintained endpoint status counts under concurrent batch writes', () => {
  let database: TemporaryDatabase;
  let store: SqlMessageStore;
  let admin: pg.Client;
  beforeAll(async () => {
    database = await createTemporaryDatabase('nimbus_store_counts');
    store = await createSqlMessageStore({
      dialect: 'postgres',
      connectionString: database.url,
      poolSize: WRITERS,
      retentionSweep: false,
      logger: silentLogger,
      env: {},
    });
    admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await store?.close();
    await database?.drop();
  });

  const deadlocks = async () =>
    Number(
      (await admin.query('SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()')).rows[0]
        .deadlocks,
    );

  it('concurrent Resolver-shaped batches never deadlock, and the counts match the rows', {
    timeout: 120_000,
  }, async () => {
    const before = await deadlocks();
    const results = await Promise.allSettled(
      Array.from({ length: WRITERS }, async (_, writer) => {
        for (let batch = 0; batch < BATCHES; batch++) {
          await store.writeBatch({ statuses: resolverLikeBatch(writer, batch) });
        }
      }),
    );
    const failures = results.flatMap((r) =>
      r.status === 'rejected' ? [String((r.reason as Error).cause ?? r.reason)] : [],
    );
    expect(failures).toEqual([]);
    // pg_stat_database is updated when a backend reports its statistics; give it a moment.
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect((await deadlocks()) - before).toBe(0);

    const actual = await admin.query(
      `SELECT endpoint_id, count(*)::int AS n FROM nimbus.unresolved_events
       WHERE deleted = 0 AND status = 'Pending' GROUP BY endpoint_id`,
    );
    for (const endpointId of ENDPOINTS) {
      const counted = await store.downloadEndpointStateCount(endpointId);
      const pending = actual.rows.find((r) => r.endpoint_id === endpointId)?.n ?? 0;
      expect({ endpointId, pending: counted.pendingCount }).toEqual({ endpointId, pending });
    }
  });
});
