import type { Logger } from '@nimbus/core';
import pg from 'pg';

export interface PgChangeListenerOptions {
  readonly connectionString: string;
  readonly channel: string;
  readonly logger: Logger;
  readonly onPayload: (payload: string) => void;
  /** After a reconnect: notifications sent while the connection was down are lost, so subscribers re-read. */
  readonly onReconnected: () => void;
  /** A `select 1` on the LISTEN connection this often notices a connection that died silently. */
  readonly probeIntervalMs: number;
  readonly maxRetryDelayMs: number;
}

/**
 * One dedicated connection LISTENing on the channel, reconnecting with back-off (100 ms doubling up to the
 * maximum) whenever it drops: a terminated backend, a database restart, a broken network.
 */
export class PgChangeListener {
  #client: pg.Client | null = null;
  #stopped = false;
  #everConnected = false;
  #retryDelayMs = 100;
  #retryTimer: NodeJS.Timeout | null = null;
  #probeTimer: NodeJS.Timeout | null = null;
  #lastError: Error | null = null;

  constructor(private readonly options: PgChangeListenerOptions) {}

  /** True while the LISTEN connection is up. */
  get connected(): boolean {
    return this.#client !== null;
  }

  get lastError(): Error | null {
    return this.#lastError;
  }

  /** Connects once; when that fails the listener keeps retrying in the background and `start` still resolves. */
  async start(): Promise<void> {
    await this.#connect();
    this.#probeTimer = setInterval(() => void this.#probe(), this.options.probeIntervalMs);
    this.#probeTimer.unref();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#retryTimer) clearTimeout(this.#retryTimer);
    if (this.#probeTimer) clearInterval(this.#probeTimer);
    const client = this.#client;
    this.#client = null;
    if (client) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
    }
  }

  async #connect(): Promise<void> {
    if (this.#stopped) return;
    const client = new pg.Client({
      connectionString: this.options.connectionString,
      application_name: 'nimbus-state-changes',
      keepAlive: true,
      connectionTimeoutMillis: 10_000,
    });
    client.on('notification', (message) => {
      if (message.channel === this.options.channel && message.payload !== undefined)
        this.options.onPayload(message.payload);
    });
    client.on('error', (error) => this.#lost(client, error));
    client.on('end', () => this.#lost(client, new Error('the LISTEN connection ended')));
    try {
      await client.connect();
      await client.query(`LISTEN "${this.options.channel}"`);
    } catch (error) {
      this.#lost(client, error as Error);
      return;
    }
    if (this.#stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.#client = client;
    this.#retryDelayMs = 100;
    if (this.#everConnected) {
      this.options.logger.info({ channel: this.options.channel }, 'State-change listener reconnected');
      this.options.onReconnected();
    }
    this.#everConnected = true;
  }

  async #probe(): Promise<void> {
    const client = this.#client;
    if (!client) return;
    try {
      await client.query('select 1');
    } catch (error) {
      this.#lost(client, error as Error);
    }
  }

  #lost(client: pg.Client, error: Error): void {
    if (this.#stopped) return;
    const wasCurrent = this.#client === client;
    if (wasCurrent) this.#client = null;
    client.removeAllListeners('end');
    client.removeAllListeners('notification');
    client.end().catch(() => undefined);
    if (wasCurrent || this.#lastError?.message !== error.message)
      this.options.logger.warn(
        { channel: this.options.channel, error: error.message },
        'State-change listener lost its connection; reconnecting',
      );
    this.#lastError = error;
    if (this.#retryTimer) return;
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = null;
      void this.#connect();
    }, this.#retryDelayMs);
    this.#retryTimer.unref();
    this.#retryDelayMs = Math.min(this.#retryDelayMs * 2, this.options.maxRetryDelayMs);
  }
}
