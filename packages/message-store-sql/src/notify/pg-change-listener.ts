import type { Logger } from '@nimbus/core';
import { ReconnectingPgListener } from '@nimbus/sql';

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
 * The state-change channel on the one reconnecting LISTEN client of `@nimbus/sql`: reconnects with back-off
 * (100 ms doubling up to the maximum), re-issues LISTEN, logs an outage once, and tells subscribers to re-read.
 */
export class PgChangeListener {
  readonly #listener: ReconnectingPgListener;

  constructor(options: PgChangeListenerOptions) {
    this.#listener = new ReconnectingPgListener({
      connectionString: options.connectionString,
      applicationName: 'nimbus-state-changes',
      channels: [options.channel],
      probeIntervalMs: options.probeIntervalMs,
      backoff: { initialMs: 100, maxMs: options.maxRetryDelayMs },
      logger: options.logger,
      events: {
        onNotification: (channel, payload) => {
          if (channel === options.channel) options.onPayload(payload);
        },
        onConnected: ({ reconnected }) => {
          if (reconnected) options.onReconnected();
        },
      },
    });
  }

  /** True while the LISTEN connection is up. */
  get connected(): boolean {
    return this.#listener.listening;
  }

  get lastError(): Error | null {
    return this.#listener.lastError;
  }

  /** Connects once; when that fails the listener keeps retrying in the background and `start` still resolves. */
  start(): Promise<void> {
    return this.#listener.start();
  }

  stop(): Promise<void> {
    return this.#listener.stop();
  }
}
