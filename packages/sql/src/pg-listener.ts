import { LifecycleRunner, NimBusError, NimBusErrorCode, RunnerLifecycle } from '@nimbus/core';
import type pg from 'pg';
import { Backoff, type BackoffOptions, RECONNECT_BACKOFF } from './backoff.js';
import { OutageLog, type OutageLogger } from './outage-log.js';
import { openPostgresClient, type PostgresConnectionOptions } from './postgres.js';
import { sqlName } from './sql-name.js';

/** PostgreSQL truncates identifiers (a LISTEN channel too) at 63 bytes. */
const MAX_CHANNEL_LENGTH = 63;

export interface PgListenerEvents {
  onNotification(channel: string, payload: string): void;
  /**
   * After every successful (re)LISTEN. `reconnected` is true after a lost connection came back: notifications
   * sent meanwhile are gone, so callers catch up (re-poll) now.
   */
  onConnected?(info: { readonly reconnected: boolean }): void;
  /** Each time the connection is lost or a reconnect attempt fails. */
  onLost?(error: Error): void;
}

export interface PgListenerOptions extends PostgresConnectionOptions {
  readonly channels: readonly string[];
  readonly events: PgListenerEvents;
  /** Logs the outage once when it starts and once when LISTEN is back. */
  readonly logger?: OutageLogger;
  /** Reconnect back-off; default 100 ms doubling to 5 s. */
  readonly backoff?: BackoffOptions;
  /**
   * A `select 1` on the LISTEN connection this often notices a connection that died silently (no FIN, no
   * error); default 0 = off (TCP keep-alive still applies).
   */
  readonly probeIntervalMs?: number;
}

/**
 * One dedicated connection LISTENing on some channels, reconnected with back-off whenever it drops (a database
 * restart, a network cut, an idle kill), LISTEN re-issued on every new connection. `start()` resolves after the
 * first attempt whether or not it succeeded: callers poll anyway, so a missing listener costs latency, never data.
 * On the one lifecycle (`RunnerLifecycle`): `stop()` ends the connection, and a stopped listener is not restarted.
 */
export class ReconnectingPgListener extends RunnerLifecycle {
  protected readonly lifecycle: LifecycleRunner;
  readonly #options: PgListenerOptions;
  readonly #backoff: Backoff;
  readonly #outage: OutageLog | null;
  /** The connection LISTENing now (null while reconnecting). */
  #client: pg.Client | null = null;
  /** The newest connection made, up or still connecting; events of older ones are ignored. */
  #latest: pg.Client | null = null;
  #everConnected = false;
  #retryTimer: NodeJS.Timeout | null = null;
  #probeTimer: NodeJS.Timeout | null = null;
  #lastError: Error | null = null;

  constructor(options: PgListenerOptions) {
    super();
    for (const channel of options.channels) sqlName(channel, 'LISTEN channel', MAX_CHANNEL_LENGTH);
    this.#options = options;
    this.lifecycle = new LifecycleRunner(
      { start: () => this.#start(), stop: () => this.#stop() },
      { name: 'the PostgreSQL LISTEN connection' },
    );
    this.#backoff = new Backoff(options.backoff ?? RECONNECT_BACKOFF);
    this.#outage = options.logger ? new OutageLog(options.logger, 'PostgreSQL LISTEN connection') : null;
  }

  /** True while a connection is up and LISTENing. */
  get listening(): boolean {
    return this.#client !== null;
  }

  /** The last connection failure (null while listening). */
  get lastError(): Error | null {
    return this.#lastError;
  }

  /** Once `stop()` began: no new connection is made, late news of old ones is ignored. */
  get #stopping(): boolean {
    return this.state === 'stopping' || this.state === 'stopped';
  }

  async #start(): Promise<void> {
    await this.#connect();
    const every = this.#options.probeIntervalMs ?? 0;
    if (every > 0) {
      this.#probeTimer = setInterval(() => void this.#probe(), every);
      this.#probeTimer.unref();
    }
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

  async #connect(): Promise<void> {
    if (this.#stopping) return;
    const client = openPostgresClient({
      ...this.#options,
      onConnectionError: (error) => this.#lost(client, error),
    });
    this.#latest = client;
    client.on('notification', (message) => {
      if (message.payload !== undefined)
        this.#options.events.onNotification(message.channel, message.payload);
    });
    client.on('end', () =>
      this.#lost(client, new NimBusError(NimBusErrorCode.ServiceUnavailable, 'LISTEN connection ended')),
    );
    try {
      await client.connect();
      for (const channel of this.#options.channels) await client.query(`LISTEN "${channel}"`);
    } catch (error) {
      this.#lost(client, error as Error);
      return;
    }
    if (this.#stopping) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      return;
    }
    this.#client = client;
    this.#lastError = null;
    this.#backoff.reset();
    this.#outage?.succeeded();
    const reconnected = this.#everConnected;
    this.#everConnected = true;
    this.#options.events.onConnected?.({ reconnected });
  }

  #lost(client: pg.Client, error: Error): void {
    client.removeAllListeners('end');
    client.removeAllListeners('notification');
    client.end().catch(() => undefined);
    if (this.#stopping) return;
    if (client !== this.#latest) return; // an old connection's late news
    this.#client = null;
    this.#lastError = error;
    this.#outage?.failed(error);
    this.#options.events.onLost?.(error);
    if (this.#retryTimer) return;
    // A failed first start counts as "never connected": the first success reports reconnected=false.
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = null;
      void this.#connect();
    }, this.#backoff.next());
    this.#retryTimer.unref();
  }

  async #stop(): Promise<void> {
    if (this.#retryTimer) clearTimeout(this.#retryTimer);
    if (this.#probeTimer) clearInterval(this.#probeTimer);
    this.#retryTimer = null;
    const client = this.#client;
    this.#client = null;
    if (client) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
    }
  }
}
