import pg from 'pg';

export interface ListenerEvents {
  onNotify(payload: string): void;
  /** Called after (re)connecting: notifications sent while disconnected are lost, so everyone re-polls. */
  onReconnect(): void;
  onLost(error: Error): void;
}

/**
 * Keeps one dedicated connection LISTENing on `channel`, reconnecting with backoff when it drops. Waiters poll
 * at the transport's interval regardless, so a lost connection only costs latency, never a message.
 */
export class PgListener {
  #client: pg.Client | null = null;
  #stopped = false;
  #retryDelayMs = 100;
  #retryTimer: NodeJS.Timeout | null = null;
  #lastError: Error | null = null;

  constructor(
    private readonly connectionString: string,
    private readonly channel: string,
    private readonly events: ListenerEvents,
  ) {}

  get lastError(): Error | null {
    return this.#lastError;
  }

  async start(): Promise<void> {
    await this.#connect();
  }

  async #connect(): Promise<void> {
    if (this.#stopped) return;
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on('notification', (message) => {
      if (message.channel === this.channel && message.payload) this.events.onNotify(message.payload);
    });
    client.on('error', (error) => this.#lost(client, error));
    client.on('end', () => this.#lost(client, new Error('LISTEN connection ended')));
    try {
      await client.connect();
      await client.query(`LISTEN "${this.channel}"`);
    } catch (error) {
      this.#lost(client, error as Error);
      return;
    }
    if (this.#stopped) {
      await client.end();
      return;
    }
    this.#client = client;
    this.#retryDelayMs = 100;
    this.events.onReconnect();
  }

  #lost(client: pg.Client, error: Error): void {
    if (this.#stopped) return;
    this.#lastError = error;
    this.events.onLost(error);
    if (this.#client === client) this.#client = null;
    client.removeAllListeners('end');
    client.end().catch(() => undefined);
    if (this.#retryTimer) return;
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = null;
      void this.#connect();
    }, this.#retryDelayMs);
    this.#retryTimer.unref();
    this.#retryDelayMs = Math.min(this.#retryDelayMs * 2, 5000);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#retryTimer) clearTimeout(this.#retryTimer);
    const client = this.#client;
    this.#client = null;
    if (client) {
      client.removeAllListeners('end');
      await client.end();
    }
  }
}
