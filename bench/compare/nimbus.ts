// NimBus under the comparison workload: an endpoint (the real MessageEngine under the SessionProcessor, no-op
// handler) over the SQL transport, optionally with the Resolver running as a separate OS process (`nimbus
// resolver`) projecting every event into the message store of the same database.
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
import { createTemporaryDatabase } from '@nimbus/testing/postgres';
import { createSqlTransport } from '@nimbus/transport-sql';
import Database from 'better-sqlite3';
import pg from 'pg';
import { sleep, until } from './stats.js';

export type Dialect = 'postgres' | 'sqlite';
export const EVENT_TYPE = 'BenchEvent';
const REPO_ROOT = join(import.meta.dirname, '..', '..');

/** A fresh database (PostgreSQL) or data directory (SQLite) holding the transport and the store. */
export interface Backend {
  readonly dialect: Dialect;
  /** Connection string, or the data directory. */
  readonly location: string;
  openTransport(): Promise<Transport>;
  /** How many events the store shows as Completed. */
  completedCount(): Promise<number>;
  /** Completed rows with the store's write time (epoch ms). */
  completedRows(): Promise<{ eventId: string; updatedAt: number }[]>;
  dispose(): Promise<void>;
}

export async function openBackend(dialect: Dialect): Promise<Backend> {
  if (dialect === 'postgres') {
    const database = await createTemporaryDatabase('nimbus_bench_compare');
    const pool = new pg.Pool({ connectionString: database.url, max: 2 });
    const storeQuery = async (sql: string) => {
      try {
        return (await pool.query(sql)).rows;
      } catch (error) {
        if ((error as { code?: string }).code === '42P01') return []; // store tables not created yet (default store schema `nimbus`)
        throw error;
      }
    };
    return {
      dialect,
      location: database.url,
      openTransport: () =>
        createSqlTransport({ dialect: 'postgres', connectionString: database.url, poolSize: 10 }),
      async completedCount() {
        const rows = await storeQuery(
          `SELECT count(*)::int AS n FROM nimbus.unresolved_events WHERE status = 'Completed'`,
        );
        return Number(rows[0]?.n ?? 0);
      },
      async completedRows() {
        const rows = await storeQuery(
          `SELECT event_id, updated_at FROM nimbus.unresolved_events WHERE status = 'Completed'`,
        );
        return rows.map((row) => ({ eventId: String(row.event_id), updatedAt: Number(row.updated_at) }));
      },
      async dispose() {
        await pool.end();
        await database.drop();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'nimbus-bench-compare-'));
  let store: Database.Database | null = null;
  const storeDb = () => {
    store ??= new Database(join(dir, 'store.db'), { readonly: true, fileMustExist: true });
    return store;
  };
  const storeAll = (sql: string): Record<string, unknown>[] => {
    try {
      return storeDb().prepare(sql).all() as Record<string, unknown>[];
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
    location: dir,
    openTransport: () => createSqlTransport({ dialect: 'sqlite', path: join(dir, 'transport.db') }),
    async completedCount() {
      return Number(
        storeAll(`SELECT count(*) AS n FROM nimbus_unresolved_events WHERE status = 'Completed'`)[0]?.n ?? 0,
      );
    },
    async completedRows() {
      return storeAll(
        `SELECT event_id, updated_at FROM nimbus_unresolved_events WHERE status = 'Completed'`,
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

/** `nimbus resolver` as its own OS process over the backend; resolves once it says it is ready. */
export async function startResolverProcess(backend: Backend): Promise<{ stop(): Promise<void> }> {
  const args = [
    ...(process.env.BENCH_RESOLVER_CPU_PROF
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_RESOLVER_CPU_PROF}`]
      : []),
    '--conditions=source',
    '--import',
    'tsx',
    join(REPO_ROOT, 'packages/cli/src/bin.ts'),
    'resolver',
    '--store',
    backend.dialect,
    '--transport',
    backend.dialect,
    '--migration-mode',
    'AutoApply',
  ];
  const env: NodeJS.ProcessEnv = { ...process.env, NIMBUS_ENVIRONMENT: 'bench' };
  if (backend.dialect === 'postgres') env.NIMBUS_POSTGRES_URL = backend.location;
  else args.push('--data-dir', backend.location);
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let ready = false;
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    if (output.includes('NimBus resolver ready')) ready = true;
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
      if (exited) throw new Error(`the Resolver process exited before it was ready:\n${output.slice(-2000)}`);
      return ready;
    },
    'the Resolver process to be ready',
    60_000,
    50,
  );
  return {
    async stop() {
      if (exited) return;
      child.kill('SIGTERM');
      for (let i = 0; i < 100 && !exited; i++) await sleep(50);
      if (!exited) child.kill('SIGKILL');
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
