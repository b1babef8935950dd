// The peers NimBus is compared with, each publishing `events` 1 KiB events over `sessions` keys while its
// consumers drain them with a no-op handler; each returns events/s from the first publish to the last handled.
import { createConnection } from 'node:net';
import Database from 'better-sqlite3';
import pg from 'pg';
import { rate, sleep, until } from './stats.js';

export interface Workload {
  readonly events: number;
  readonly sessions: number;
  readonly body: string;
}

const PUBLISH_BATCH = 50;
const CONSUMERS = 4;

/** A plain table queue: consumers claim and delete with SKIP LOCKED, `perCommit` rows per statement. */
export async function rawPostgres(url: string, work: Workload, perCommit: number): Promise<number> {
  const pool = new pg.Pool({ connectionString: url, max: CONSUMERS + 2 });
  await pool.query('DROP TABLE IF EXISTS bench_queue');
  await pool.query(
    'CREATE TABLE bench_queue (id bigserial PRIMARY KEY, session_id text NOT NULL, body text NOT NULL)',
  );
  let consumed = 0;
  const started = Date.now();
  const publisher = (async () => {
    for (let i = 0; i < work.events; i += PUBLISH_BATCH) {
      const count = Math.min(PUBLISH_BATCH, work.events - i);
      const values = Array.from({ length: count }, (_, k) => `($${2 * k + 1}, $${2 * k + 2})`).join(', ');
      const params = Array.from({ length: count }, (_, k) => [
        `s${(i + k) % work.sessions}`,
        work.body,
      ]).flat();
      await pool.query(`INSERT INTO bench_queue (session_id, body) VALUES ${values}`, params);
    }
  })();
  const consumer = async () => {
    while (consumed < work.events) {
      const { rowCount } = await pool.query(
        `DELETE FROM bench_queue WHERE id IN (SELECT id FROM bench_queue ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED) RETURNING body`,
        [perCommit],
      );
      if (rowCount) consumed += rowCount;
      else await sleep(1);
    }
  };
  await Promise.all([publisher, ...Array.from({ length: CONSUMERS }, consumer)]);
  const elapsed = Date.now() - started;
  await pool.query('DROP TABLE bench_queue');
  await pool.end();
  return rate(work.events, elapsed);
}

/** The embedded equivalent: one SQLite file, one thread publishing a batch then claiming one row per statement. */
export async function rawSqlite(path: string, work: Workload): Promise<number> {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('DROP TABLE IF EXISTS bench_queue');
  db.exec(
    'CREATE TABLE bench_queue (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id text NOT NULL, body text NOT NULL)',
  );
  const insert = db.prepare('INSERT INTO bench_queue (session_id, body) VALUES (?, ?)');
  const insertBatch = db.transaction((from: number, count: number) => {
    for (let k = 0; k < count; k++) insert.run(`s${(from + k) % work.sessions}`, work.body);
  });
  const claim = db.prepare(
    'DELETE FROM bench_queue WHERE id = (SELECT id FROM bench_queue ORDER BY id LIMIT 1) RETURNING body',
  );
  let consumed = 0;
  let published = 0;
  const started = Date.now();
  while (consumed < work.events) {
    if (published < work.events) {
      const count = Math.min(PUBLISH_BATCH, work.events - published);
      insertBatch(published, count);
      published += count;
    }
    for (let k = 0; k < PUBLISH_BATCH && claim.get(); k++) consumed++;
    await new Promise((resolve) => setImmediate(resolve));
  }
  const elapsed = Date.now() - started;
  db.exec('DROP TABLE bench_queue');
  db.close();
  return rate(work.events, elapsed);
}

/**
 * pg-boss 12 (Node >= 22.12): `key_strict_fifo` keeps FIFO per `singletonKey` (a failed job holds back its key's
 * successors only, like a blocked NimBus session); `standard` has no order. Workers are woken by NOTIFY, fetch
 * batches of 50 and keep fetching while batches come back full; 4 batches handled at once.
 */
export async function pgBoss(
  url: string,
  work: Workload,
  schema: string,
  policy: 'key_strict_fifo' | 'standard',
): Promise<number> {
  const { PgBoss } = await import('pg-boss');
  const boss = new PgBoss({ connectionString: url, schema, max: 10, supervise: false, schedule: false });
  boss.on('error', (error: unknown) => console.error('pg-boss error:', error));
  await boss.start();
  const queue = 'bench';
  await boss.createQueue(queue, { policy, notify: true });
  let handled = 0;
  const started = Date.now();
  await boss.work(
    queue,
    {
      batchSize: 50,
      localConcurrency: 4,
      pollingIntervalSeconds: 0.5,
      notifyPollingIntervalSeconds: 0.5,
      burstWhenBatchFull: true,
    },
    async (jobs) => {
      handled += jobs.length;
    },
  );
  for (let i = 0; i < work.events; i += PUBLISH_BATCH) {
    const count = Math.min(PUBLISH_BATCH, work.events - i);
    await boss.insert(
      queue,
      Array.from({ length: count }, (_, k) => ({
        data: { body: work.body },
        singletonKey: `s${(i + k) % work.sessions}`,
      })),
    );
  }
  await until(() => handled >= work.events, 'pg-boss to handle every job', 600_000, 5);
  const elapsed = Date.now() - started;
  await boss.stop({ graceful: false });
  return rate(work.events, elapsed);
}

/** Whether something accepts TCP connections at host:port (BullMQ needs Redis). */
export function reachable(host: string, port: number, timeoutMs = 1_000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Where BullMQ's Redis is: `BENCH_REDIS` (`host:port`), default the local one at 127.0.0.1:6379. */
export function redisAddress(): { host: string; port: number } {
  const [host = '127.0.0.1', port = '6379'] = (process.env.BENCH_REDIS ?? '127.0.0.1:6379').split(':');
  return { host, port: Number(port) };
}

/** BullMQ on the local Redis, `concurrency` jobs at once (no per-key order: BullMQ has none without Pro groups). */
export async function bullMq(work: Workload, queueName: string, concurrency = 50): Promise<number> {
  const { Queue, Worker } = await import('bullmq');
  const { Redis } = await import('ioredis');
  const redis = () => new Redis({ ...redisAddress(), maxRetriesPerRequest: null });
  const queueConnection = redis();
  const workerConnection = redis();
  const queue = new Queue(queueName, { connection: queueConnection });
  let handled = 0;
  const worker = new Worker(
    queueName,
    async () => {
      handled += 1;
    },
    { connection: workerConnection, concurrency, removeOnComplete: { count: 0 }, removeOnFail: { count: 0 } },
  );
  await worker.waitUntilReady();
  const started = Date.now();
  for (let i = 0; i < work.events; i += PUBLISH_BATCH) {
    const count = Math.min(PUBLISH_BATCH, work.events - i);
    await queue.addBulk(
      Array.from({ length: count }, (_, k) => ({
        name: 'event',
        data: { key: `s${(i + k) % work.sessions}`, body: work.body },
        opts: { removeOnComplete: true, removeOnFail: true },
      })),
    );
  }
  await until(() => handled >= work.events, 'BullMQ to handle every job', 600_000, 5);
  const elapsed = Date.now() - started;
  await worker.close();
  await queue.obliterate({ force: true });
  await queue.close();
  queueConnection.disconnect();
  workerConnection.disconnect();
  return rate(work.events, elapsed);
}
