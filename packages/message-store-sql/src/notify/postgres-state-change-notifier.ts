import {
  LifecycleRunner,
  type Logger,
  type ServiceLifecycle,
  stopChild,
  whenAborted,
  withLifecycle,
} from '@nimbus/core';
import type { StateChangeListener } from '@nimbus/message-store';
import { openPostgresPool, ReconnectingPgListener } from '@nimbus/sql';
import { decodeChanges } from './change-payloads.js';
import { CoalescingSender } from './coalescing-sender.js';
import type { SqlNotifierTuning, SqlStateChangeNotifier } from './sql-state-change-notifier.js';
import { Subscribers } from './subscribers.js';

export interface PostgresNotifierOptions extends SqlNotifierTuning {
  readonly connectionString: string;
  /** The store's schema: stores in different schemas of one database do not hear each other. */
  readonly schema: string;
  readonly logger: Logger;
}

/** The channel name for a schema (a plain identifier: the schema name is one). */
export function stateChangeChannel(schema: string): string {
  return `nimbus_state_${schema}`.slice(0, 63);
}

/**
 * Cross-process notifications over PostgreSQL `LISTEN/NOTIFY`: payloads carry ids only (split under the
 * 8000-byte limit); one LISTEN connection per process reconnects with back-off and tells subscribers to
 * resync after a reconnect, because notifications sent while it was down are gone.
 */
export function createPostgresStateChangeNotifier(options: PostgresNotifierOptions): SqlStateChangeNotifier {
  const channel = stateChangeChannel(options.schema);
  const subscribers = new Subscribers(options.logger);
  const pool = openPostgresPool({
    connectionString: options.connectionString,
    max: 2,
    applicationName: 'nimbus-state-changes',
  });
  const sender = new CoalescingSender({
    logger: options.logger,
    delayMs: options.coalesceMs ?? 50,
    retryMs: options.retryMs ?? 1_000,
    send: async (payloads) => {
      await pool.query('select pg_notify($1, payload) from unnest($2::text[]) as payload', [
        channel,
        [...payloads],
      ]);
    },
  });
  const listener = new ReconnectingPgListener({
    connectionString: options.connectionString,
    applicationName: 'nimbus-state-changes',
    channels: [channel],
    logger: options.logger,
    events: {
      onNotification: (_channel, payload) => void subscribers.deliver(decodeChanges(payload)),
      onConnected: ({ reconnected }) => {
        if (reconnected) void subscribers.deliver([{ kind: 'resync' }]);
      },
    },
  });
  const lifecycle = new LifecycleRunner({
    start: () => listener.start(),
    // Pending changes go out once more, unless the stop's deadline (or `abort()`) cuts that short.
    stop: async (context) => {
      await Promise.race([sender.close(), whenAborted(context.signal)]);
      await stopChild(listener, context);
      await pool.end();
    },
  });

  const notifier: Omit<SqlStateChangeNotifier, keyof ServiceLifecycle> = {
    dialect: 'postgres',
    subscribe: (l: StateChangeListener) => subscribers.subscribe(l),
    notify: async (change) => sender.add(change),
    flush: () => sender.flush(),
    get listening() {
      return listener.listening;
    },
  };
  return withLifecycle(notifier, lifecycle);
}
