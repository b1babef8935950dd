import type { Logger } from '@nimbus/core';
import type { ResolvedOptions } from '../../options.js';
import type { SqlExecutor } from '../../sql/database.js';
import type { Tables } from '../../tables.js';
import type { Wakeups } from '../../wakeups.js';
import type { WakeupListener } from '../dialect.js';

/** Sessions asked about in one statement (well below SQLite's bound-parameter limit). */
const SESSIONS_PER_STATEMENT = 200;

/**
 * SQLite cannot notify another process, so work another process writes is found by polling. Instead of every
 * held session polling its own line (four statements per look, every few milliseconds after each message), one
 * poller per transport asks in one statement which of the sessions whose receive waits now have unheld
 * messages, and wakes exactly those. It polls from `minPollIntervalMs` after it found work or a receive began
 * to wait, doubling up to `pollIntervalMs`; each waiting receive still looks at its own line every
 * `pollIntervalMs` as the fallback.
 */
export function startHeldLinePoller(
  db: SqlExecutor,
  tables: Tables,
  wakeups: Wakeups,
  logger: Logger,
  options: Pick<ResolvedOptions, 'minPollIntervalMs' | 'pollIntervalMs'>,
): WakeupListener {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let interval = options.minPollIntervalMs;
  let running: Promise<void> = Promise.resolve();
  let failing = false;
  let waitsSeen = wakeups.holderWaitsStarted;

  const look = async (): Promise<boolean> => {
    let found = false;
    for (const [input, sessionIds] of wakeups.waitingHolders()) {
      for (let at = 0; at < sessionIds.length; at += SESSIONS_PER_STATEMENT) {
        const part = sessionIds.slice(at, at + SESSIONS_PER_STATEMENT);
        const rows = await db.all(
          `SELECT DISTINCT session_id FROM ${tables.messages}
           WHERE input = ? AND held_by IS NULL AND session_id IN (${part.map(() => '?').join(', ')})`,
          [input, ...part],
          { prepared: true },
        );
        if (rows.length === 0) continue;
        found = true;
        wakeups.notifyWork(
          input,
          rows.map((row) => String(row.session_id)),
        );
      }
    }
    return found;
  };

  const tick = () => {
    timer = null;
    if (stopped) return;
    running = look().then(
      (found) => {
        if (failing) logger.info({}, 'SQLite held-line poll works again');
        failing = false;
        // Like a receive polling its own line: soon after work, or after a receive began to wait, then less often.
        const newWaits = wakeups.holderWaitsStarted !== waitsSeen;
        waitsSeen = wakeups.holderWaitsStarted;
        interval =
          found || newWaits ? options.minPollIntervalMs : Math.min(interval * 2, options.pollIntervalMs);
      },
      (error: unknown) => {
        // Said once per outage; meanwhile each waiting receive still looks at its own line.
        if (!stopped && !failing)
          logger.warn(
            { error: String(error) },
            'SQLite held-line poll failed; receives fall back to polling their lines',
          );
        failing = true;
        interval = options.pollIntervalMs;
      },
    );
    void running.then(() => {
      if (!stopped) {
        timer = setTimeout(tick, Math.max(1, interval));
        timer.unref();
      }
    });
  };
  timer = setTimeout(tick, interval);
  timer.unref();

  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
    },
  };
}
