// NimBus under the comparison workload: an endpoint (the real MessageEngine under the SessionProcessor, no-op
// handler) over the SQL transport, in this process or its own, with the store co-located (the endpoint's
// settlement writes the rows) or apart (a Resolver process projects every copy).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createEnvelope,
  encodeEnvelope,
  MessageEngine,
  MessageType,
  SessionProcessor,
  silentLogger,
  type Transport,
  uuidv7,
} from '@nimbus/core';
import {
  createSqlColocatedProjection,
  createSqlStateChangeNotifier,
  migrateSqlMessageStore,
  type SqlMessageStoreOptions,
} from '@nimbus/message-store-sql';
import { createTemporaryDatabase } from '@nimbus/testing/postgres';
import { createSqlTransport, type SqlTransportConnection } from '@nimbus/transport-sql';
import Database from 'better-sqlite3';
import pg from 'pg';
import { sleep, until } from './stats.js';

export type Dialect = 'postgres' | 'sqlite';
export const EVENT_TYPE = 'BenchEvent';
const REPO_ROOT = join(import.meta.dirname, '..', '..');

/**
 * How tracking is wired: `transport` no store at all (the Resolver copies pile up unconsumed); `colocated` the
 * store's tables in the transport's database, the endpoint's settlement writes the rows (a Resolver process runs
 * for what it still receives); `apart` the store in another database (PostgreSQL) or file (SQLite), every copy
 * through the Resolver process.
 */
export type Shape = 'transport' | 'colocated' | 'apart';

/** What every process of one run opens: the transport, the store, and whether they are co-located. */
export interface BusConfig {
  readonly transport: SqlTransportConnection;
  readonly store: SqlMessageStoreOptions;
  readonly colocated: boolean;
}

/** A fresh database (PostgreSQL) or data directory (SQLite) for one run. */
export interface Backend {
  readonly dialect: Dialect;
  readonly shape: Shape;
  readonly config: BusConfig;
  /** How many events the store shows as Completed. */
  completedCount(): Promise<number>;
  /** Completed rows with the store's write time (epoch ms). */
  completedRows(): Promise<{ eventId: string; updatedAt: number }[]>;
  dispose(): Promise<void>;
}

/**
 * The transport as every process of the run opens it: co-located, with the store's schema applied first and the
 * store's projection (notifying through the store's SQL notifier, as `nimbus` does).
 */
export async function openBusTransport(
  config: BusConfig,
): Promise<{ transport: Transport; close(): Promise<void> }> {
  if (!config.colocated) {
    const transport = oneAtATime(
      await createSqlTransport(config.transport, { ...tuning(), logger: silentLogger }),
    );
    return { transport, close: () => transport.close() };
  }
  await migrateSqlMessageStore({ ...config.store, env: {} });
  const notifier = await createSqlStateChangeNotifier({ ...config.store, env: {}, logger: silentLogger });
  const projection = createSqlColocatedProjection({
    ...config.store,
    env: {},
    notifier,
    logger: silentLogger,
  });
  const transport = oneAtATime(
    await createSqlTransport(config.transport, { ...tuning(), projection, logger: silentLogger }),
  );
  return {
    transport,
    async close() {
      await transport.close();
      await notifier.stop();
    },
  };
}

/**
 * BENCH_ACCEPT_MANY=0: hides the transport's `acceptSessions`, so every accept loop leases its session alone (the
 * path before it), for measuring what leasing several sessions in one statement changes.
 */
function oneAtATime<T extends Transport>(transport: T): T {
  if (process.env.BENCH_ACCEPT_MANY === '0')
    Object.defineProperty(transport, 'acceptSessions', { value: undefined });
  return transport;
}

/** BENCH_SETTLE_GROUP=N: settlement groups in flight (0: every lease settles alone), for choosing the default. */
function tuning(): { settleGroupConcurrency?: number } {
  const group = process.env.BENCH_SETTLE_GROUP;
  return group === undefined ? {} : { settleGroupConcurrency: Number(group) };
}

const STORE_TABLE = { postgres: 'nimbus.unresolved_events', sqlite: 'nimbus_unresolved_events' } as const;

export async function openBackend(dialect: Dialect, shape: Shape): Promise<Backend> {
  if (dialect === 'postgres') {
    const database = await createTemporaryDatabase('nimbus_bench_compare');
    const storeDatabase =
      shape === 'apart' ? await createTemporaryDatabase('nimbus_bench_compare_store') : database;
    const pool = new pg.Pool({ connectionString: storeDatabase.url, max: 2 });
    const storeQuery = async (sql: string) => {
      try {
        return (await pool.query(sql)).rows;
      } catch (error) {
        if ((error as { code?: string }).code === '42P01') return []; // store tables not created yet
        throw error;
      }
    };
    return {
      dialect,
      shape,
      config: {
        transport: { dialect: 'postgres', connectionString: database.url, poolSize: 10 },
        store: { dialect: 'postgres', connectionString: storeDatabase.url, poolSize: 10 },
        colocated: shape === 'colocated',
      },
      async completedCount() {
        const rows = await storeQuery(
          `SELECT count(*)::int AS n FROM ${STORE_TABLE.postgres} WHERE status = 'Completed'`,
        );
        return Number(rows[0]?.n ?? 0);
      },
      async completedRows() {
        const rows = await storeQuery(
          `SELECT event_id, updated_at FROM ${STORE_TABLE.postgres} WHERE status = 'Completed'`,
        );
        return rows.map((row) => ({ eventId: String(row.event_id), updatedAt: Number(row.updated_at) }));
      },
      async dispose() {
        await pool.end();
        if (storeDatabase !== database) await storeDatabase.drop();
        await database.drop();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'nimbus-bench-compare-'));
  const transportPath = join(dir, 'transport.db');
  const storePath = shape === 'colocated' ? transportPath : join(dir, 'store.db');
  let store: Database.Database | null = null;
  const storeAll = (sql: string): Record<string, unknown>[] => {
    try {
      store ??= new Database(storePath, { readonly: true, fileMustExist: true });
      return store.prepare(sql).all() as Record<string, unknown>[];
    } catch (error) {
      if (/no such table|unable to open/i.test(String(error))) {
        store?.close();
        store = null;
        return [];
      }
      throw error;
    }
  };
  return {
    dialect,
    shape,
    config: {
      transport: { dialect: 'sqlite', path: transportPath },
      store: { dialect: 'sqlite', filename: storePath },
      colocated: shape === 'colocated',
    },
    async completedCount() {
      return Number(
        storeAll(`SELECT count(*) AS n FROM ${STORE_TABLE.sqlite} WHERE status = 'Completed'`)[0]?.n ?? 0,
      );
    },
    async completedRows() {
      return storeAll(
        `SELECT event_id, updated_at FROM ${STORE_TABLE.sqlite} WHERE status = 'Completed'`,
      ).map((row) => ({ eventId: String(row.event_id), updatedAt: Number(row.updated_at) }));
    },
    async dispose() {
      store?.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const TOPOLOGY = {
  endpoints: ['Crm', 'Erp'],
  routes: [{ source: 'Crm', eventTypeId: EVENT_TYPE, target: 'Erp' }],
};

export interface ChildProcessHandle {
  /** SIGTERM, then what the child printed after it (its statement counts). */
  stop(): Promise<string>;
}

/**
 * A bench child (`resolver-process.ts`, `endpoint-process.ts`) as its own OS process over `config`; resolves once
 * it prints `ready`. BENCH_RESOLVER_CPU_PROF=<dir> profiles the Resolver process.
 */
export async function startChild(
  script: 'resolver-process.ts' | 'endpoint-process.ts',
  config: BusConfig,
  extraEnv: Record<string, string> = {},
): Promise<ChildProcessHandle> {
  const profile = script === 'resolver-process.ts' && process.env.BENCH_RESOLVER_CPU_PROF;
  const args = [
    ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []),
    '--conditions=source',
    '--import',
    'tsx',
    join(import.meta.dirname, script),
  ];
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, ...extraEnv, BENCH_BUS_CONFIG: JSON.stringify(config) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let ready = false;
  let readyAt = 0;
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    if (!ready && output.includes('ready\n')) {
      ready = true;
      readyAt = output.length;
    }
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  await until(
    () => {
      if (exited) throw new Error(`${script} exited before it was ready:\n${output.slice(-2000)}`);
      return ready;
    },
    `${script} to be ready`,
    90_000,
    50,
  );
  return {
    async stop() {
      if (!exited) {
        child.kill('SIGTERM');
        for (let i = 0; i < 200 && !exited; i++) await sleep(50);
        if (!exited) child.kill('SIGKILL');
      }
      return output.slice(readyAt).trim();
    },
  };
}

export interface HandlerHooks {
  /** Called when the handler starts, with the event's JSON payload and its EventId. */
  onStart?(payload: { sentAt: number; key: number }, eventId: string): void;
  onDone?(eventId: string): void;
}

export interface EndpointSettings {
  readonly maxConcurrentSessions?: number;
  readonly receiveBatchSize?: number;
}

/** The Erp endpoint: the real engine with a no-op handler under the session processor. */
export function startEndpoint(
  transport: Transport,
  settings: EndpointSettings,
  hooks: HandlerHooks,
  onHandled: (count: number) => void,
): SessionProcessor {
  const engine = new MessageEngine({
    endpointId: 'Erp',
    logger: silentLogger,
    handler: {
      async handle(context) {
        const eventId = context.message.eventId ?? '';
        if (hooks.onStart) {
          const content = context.message.content.eventContent;
          hooks.onStart(JSON.parse(content?.eventJson ?? '{}'), eventId);
        }
        hooks.onDone?.(eventId);
      },
    },
  });
  const processor = new SessionProcessor({
    transport,
    input: 'Erp',
    logger: silentLogger,
    ...(settings.maxConcurrentSessions ? { maxConcurrentSessions: settings.maxConcurrentSessions } : {}),
    receiveBatchSize: settings.receiveBatchSize ?? 32,
    ...(process.env.BENCH_SESSION_IDLE_MS
      ? { sessionIdleTimeoutMs: Number(process.env.BENCH_SESSION_IDLE_MS) }
      : {}),
    handler: {
      onSessionAccepted: (session) => engine.onSessionAccepted(session),
      async handleMessage(session, message) {
        await engine.handleMessage(session, message);
        onHandled(1);
      },
      async handleMessages(session, messages) {
        await engine.handleMessages(session, messages);
        onHandled(messages.length);
      },
    },
  });
  return processor;
}

/** One 1 KiB event for `key`, stamped with its publish time. */
export function benchEvent(key: number, body: string, sentAt = Date.now()) {
  return encodeEnvelope(
    createEnvelope({
      messageId: uuidv7(),
      correlationId: uuidv7(),
      to: EVENT_TYPE,
      sessionId: `k${key}`,
      messageType: MessageType.EventRequest,
      content: {
        eventContent: { eventTypeId: EVENT_TYPE, eventJson: JSON.stringify({ sentAt, key, data: body }) },
        errorContent: null,
      },
    }),
  );
}
