import type { DialectWakeups, WorkNotifier } from '../dialect.js';

// SQLite has no notifications between processes: an accept polls adaptively, from `minPollIntervalMs` right after
// work was seen, doubling per empty poll up to `pollIntervalMs`; held sessions are looked after by one poller
// (held-line-poller.ts). Work written by this process wakes its waiters directly.

const NO_ONE_ELSE: WorkNotifier = { take: () => [], close: () => {} };

export const sqliteWakeups: DialectWakeups = {
  createNotifier: () => NO_ONE_ELSE,
  firstPollMs: (options) => options.minPollIntervalMs,
  nextPollMs: (current, options) => Math.min(current * 2 || 1, options.pollIntervalMs),
  // The held-line poller finds other processes' work for held sessions; their own look is the fallback.
  receivePollMs: (options) => options.pollIntervalMs,
};
