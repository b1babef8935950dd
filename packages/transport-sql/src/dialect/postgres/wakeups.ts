import type { Logger } from '@nimbus/core';
import { ReconnectingPgListener } from '@nimbus/sql';
import { NotifyCoalescer } from '../../notify-coalescer.js';
import type { Wakeups } from '../../wakeups.js';
import type { DialectWakeups, WakeupListener } from '../dialect.js';

// PostgreSQL: writers NOTIFY per input (coalesced), a dedicated connection LISTENs, and polling is only the
// fallback for what that misses (a lost connection), at the full `pollIntervalMs`.

export const postgresWakeups: DialectWakeups = {
  createNotifier({ origin, windowMs, db, channel, logger }) {
    return new NotifyCoalescer(
      origin,
      windowMs,
      async (payloads) => {
        await db.all(`SELECT pg_notify(?, x) FROM unnest(?::text[]) AS x`, [channel, payloads]);
      },
      (error) =>
        logger.warn({ error }, 'SQL transport: a coalesced NOTIFY failed; listeners fall back to polling'),
    );
  },
  firstPollMs: (options) => options.pollIntervalMs,
  nextPollMs: (_current, options) => options.pollIntervalMs,
  receivePollMs: (options) => options.pollIntervalMs,
};

/** LISTENs on `channel` and hands every notification to `wakeups`. */
export async function listenForWork(
  connectionString: string,
  channel: string,
  work: Wakeups,
  logger: Logger,
): Promise<WakeupListener> {
  const listener = new ReconnectingPgListener({
    connectionString,
    applicationName: 'nimbus-transport-listen',
    channels: [channel],
    // Notifications sent while disconnected are lost; waking every waiter makes them re-poll now.
    events: {
      onNotification: (_channel, payload) => work.onPayload(payload),
      onConnected: () => work.notifyAll(),
    },
    logger,
  });
  await listener.start();
  return listener;
}
