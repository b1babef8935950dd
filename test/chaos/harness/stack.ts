import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ManagedProcess } from './managed-process.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
export const CLI_BIN = join(root, 'packages/cli/dist/bin.js');
const FIXTURES = join(root, 'test/chaos/fixtures');
export const PLATFORM_MODULE = join(FIXTURES, 'platform.mjs');

/** The Resolver's session lease in the suite (`nimbus resolver --lease-ms`): a stalled Resolver loses it. */
export const RESOLVER_LEASE_MS = 10_000;

export type StackBackend =
  | { readonly dialect: 'postgres'; readonly url: string }
  | { readonly dialect: 'sqlite' };

/** Where the store's rows are written: by the bus's own transactions (the default) or by the Resolver alone. */
export type TrackingShape = 'colocated' | 'resolver';

export interface StackOptions {
  readonly backend: StackBackend;
  /**
   * Default `resolver`. `colocated` (the CLI's default when store and transport share one database) also hands the
   * fixture processes the co-located projection, so every process writes store rows in its own transactions.
   */
  readonly tracking?: TrackingShape;
  /** Logs, handler log, markers and (SQLite) the database files live here. */
  readonly workDir: string;
  readonly webappPort: number;
  readonly adminPassword?: string;
}

/**
 * The product as several OS processes over one database: `nimbus resolver`, `nimbus webapp` (both through the
 * compiled CLI), adapter hosts (SDK endpoint host) and a publisher (fixtures/*.mjs).
 */
export class Stack {
  readonly handlerLog: string;
  readonly markerDir: string;
  readonly dataDir: string;
  readonly adminPassword: string;
  readonly processes = new Map<string, ManagedProcess>();

  constructor(readonly options: StackOptions) {
    mkdirSync(options.workDir, { recursive: true });
    this.handlerLog = join(options.workDir, 'handler.log');
    this.markerDir = join(options.workDir, 'markers');
    this.dataDir = join(options.workDir, 'data');
    this.adminPassword = options.adminPassword ?? 'Chaos!Admin123';
  }

  get tracking(): TrackingShape {
    return this.options.tracking ?? 'resolver';
  }

  get webappUrl(): string {
    return `http://127.0.0.1:${this.options.webappPort}`;
  }

  /** Environment of the CLI processes. */
  cliEnv(): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {};
    for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('NIMBUS_')) env[key] = value;
    const { backend } = this.options;
    return {
      ...env,
      NIMBUS_DATA_DIR: this.dataDir,
      NIMBUS_STORE: backend.dialect,
      NIMBUS_TRANSPORT: backend.dialect,
      NIMBUS_TRACKING: this.tracking,
      ...(backend.dialect === 'postgres' ? { NIMBUS_POSTGRES_URL: backend.url } : {}),
      NIMBUS_IDENTITY_ADMIN_PASSWORD: this.adminPassword,
    };
  }

  /** Environment of the fixture processes. */
  fixtureEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
    const { backend } = this.options;
    return {
      ...process.env,
      DIALECT: backend.dialect,
      ...(backend.dialect === 'postgres'
        ? { DATABASE_URL: backend.url }
        : { SQLITE_PATH: join(this.dataDir, 'transport.db') }),
      TRACKING: this.tracking,
      HANDLER_LOG: this.handlerLog,
      MARKER_DIR: this.markerDir,
      ...extra,
    };
  }

  #add(process: ManagedProcess): ManagedProcess {
    this.processes.set(process.name, process);
    return process;
  }

  #log(name: string): string {
    return join(this.options.workDir, `${name}.out`);
  }

  resolver(): ManagedProcess {
    return this.#add(
      new ManagedProcess({
        name: 'resolver',
        script: CLI_BIN,
        args: [
          'resolver',
          '--platform',
          PLATFORM_MODULE,
          '--verbose',
          '--lease-ms',
          String(RESOLVER_LEASE_MS),
        ],
        env: this.cliEnv(),
        logFile: this.#log('resolver'),
      }),
    );
  }

  webapp(): ManagedProcess {
    return this.#add(
      new ManagedProcess({
        name: 'webapp',
        script: CLI_BIN,
        args: ['webapp', '--platform', PLATFORM_MODULE, '--port', String(this.options.webappPort)],
        env: this.cliEnv(),
        logFile: this.#log('webapp'),
      }),
    );
  }

  /** An adapter host; `extra` tunes it (LEASE_MS, RECEIVE_BATCH_SIZE, HANDLER_DELAY_MS: see adapter-host.mjs). */
  host(name: string, extra: Record<string, string> = {}): ManagedProcess {
    return this.#add(
      new ManagedProcess({
        name,
        script: join(FIXTURES, 'adapter-host.mjs'),
        env: this.fixtureEnv({ ...extra, HOST_NAME: name }),
        logFile: this.#log(name),
      }),
    );
  }

  publisher(): ManagedProcess {
    return this.#add(
      new ManagedProcess({
        name: 'publisher',
        script: join(FIXTURES, 'publisher.mjs'),
        env: this.fixtureEnv(),
        logFile: this.#log('publisher'),
      }),
    );
  }

  /** Processes that exited without the test asking. */
  leaseLapses() {
    return [...this.processes.values()].flatMap((p) => p.leaseLapses);
  }

  unexpectedExits() {
    return [...this.processes.values()].flatMap((p) => p.unexpectedExits);
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.processes.values()].map((p) => p.close()));
  }
}
