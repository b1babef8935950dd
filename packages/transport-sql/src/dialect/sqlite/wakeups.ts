import type { DialectWakeups, WorkNotifier } from '../dialect.js';

// SQLite has no notifications between processes: a waiter polls adaptively, from `minPollIntervalMs` right after
// work was seen, doubling per empty poll up to `pollIntervalMs`. Work written by this process wakes its waiters
// directly.

const NO_ONE_ELSE: WorkNotifier = { take: () => [], close: () => {} };

export const sqliteWakeups: DialectWakeups = {
  createNotifier: () => NO_ONE_ELSE,
  firstPollMs: (options) => options.minPollIntervalMs,
  nextPollMs: (current, options) => Math.min(current * 2 || 1, options.pollIntervalMs),
};
