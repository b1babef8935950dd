import { execFile } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { NimBusError, NimBusErrorCode } from '@nimbus/core';
import pg from 'pg';

const run = promisify(execFile);

/** Where Debian puts the server binaries; `NIMBUS_PG_BIN` overrides. */
export const POSTGRES_BIN_DIR = process.env.NIMBUS_PG_BIN ?? '/usr/lib/postgresql/15/bin';

export interface OwnPostgresClusterOptions {
  /** TCP port on 127.0.0.1; pick one from your own range. */
  readonly port: number;
  /** Data directory; default a fresh `mkdtemp` under the OS temp dir. */
  readonly dataDir?: string;
  /** Extra `postgres -c name=value` settings. */
  readonly settings?: Readonly<Record<string, string | number>>;
}

/**
 * A PostgreSQL cluster of the test's own (initdb + pg_ctl, trust auth, 127.0.0.1 only, its own data directory and
 * socket directory), so a test can stop, restart or cut it without disturbing anything else on the machine.
 */
export interface OwnPostgresCluster {
  readonly port: number;
  readonly dataDir: string;
  /** `postgres://postgres@127.0.0.1:<port>/postgres`. */
  readonly url: string;
  /** URL of another database on the cluster (create it with `createDatabase`). */
  urlOf(database: string): string;
  createDatabase(name: string): Promise<string>;
  /** Fast shutdown: every connection gets 57P01, new ones are refused until `start()`. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** `stop()` then `start()`; with `downMs`, stays down that long in between. */
  restart(downMs?: number): Promise<void>;
  isRunning(): Promise<boolean>;
  /** Stops the server and deletes the data directory. */
  destroy(): Promise<void>;
}

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** initdb and postgres refuse to run as root; as root the binaries run as the `postgres` OS user. */
async function pgCommand(binary: string, args: readonly string[]): Promise<string> {
  const file = join(POSTGRES_BIN_DIR, binary);
  const [command, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, [...args]];
  try {
    const { stdout } = await run(command, argv, { timeout: 120_000 });
    return stdout;
  } catch (error) {
    const e = error as { stderr?: string; stdout?: string; message: string };
    throw new NimBusError(
      NimBusErrorCode.ExpectationFailed,
      `${binary} ${args.join(' ')} failed: ${e.stderr || e.stdout || e.message}`,
    );
  }
}

export async function startOwnPostgresCluster(
  options: OwnPostgresClusterOptions,
): Promise<OwnPostgresCluster> {
  const { port } = options;
  if (!existsSync(join(POSTGRES_BIN_DIR, 'initdb'))) {
    throw new NimBusError(
      NimBusErrorCode.ExpectationFailed,
      `startOwnPostgresCluster: no initdb in ${POSTGRES_BIN_DIR} (set NIMBUS_PG_BIN)`,
    );
  }
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), `nimbus-pg-${port}-`));
  if (asRoot) {
    const postgresUser = await run('id', ['-u', 'postgres']);
    const postgresGroup = await run('id', ['-g', 'postgres']);
    chownSync(dataDir, Number(postgresUser.stdout.trim()), Number(postgresGroup.stdout.trim()));
  }
  chmodSync(dataDir, 0o700);
  await pgCommand('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const settings = {
    listen_addresses: '127.0.0.1',
    port,
    unix_socket_directories: dataDir,
    fsync: 'off',
    max_connections: 200,
    ...options.settings,
  };
  const serverOptions = Object.entries(settings)
    .map(([name, value]) => `-c ${name}=${value}`)
    .join(' ');
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const logFile = join(dataDir, 'server.log');

  const start = async () => {
    await pgCommand('pg_ctl', ['-D', dataDir, '-l', logFile, '-o', serverOptions, '-w', '-t', '60', 'start']);
    await waitUntilAccepting(url);
  };
  const stop = async () => {
    await pgCommand('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', '-t', '60', 'stop']);
  };
  const isRunning = async () => {
    try {
      await pgCommand('pg_ctl', ['-D', dataDir, 'status']);
      return true;
    } catch {
      return false;
    }
  };
  const urlOf = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;

  await start();
  return {
    port,
    dataDir,
    url,
    urlOf,
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`create database "${name.replace(/"/g, '')}"`);
      } finally {
        await client.end();
      }
      return urlOf(name);
    },
    stop,
    start,
    async restart(downMs = 0) {
      await stop();
      if (downMs > 0) await sleep(downMs);
      await start();
    },
    isRunning,
    async destroy() {
      if (await isRunning()) await stop().catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function waitUntilAccepting(url: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('select 1');
      return;
    } catch (error) {
      if (Date.now() > deadline)
        throw new NimBusError(
          NimBusErrorCode.ExpectationFailed,
          `PostgreSQL at ${url} did not accept connections: ${(error as Error).message}`,
        );
      await sleep(100);
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}
