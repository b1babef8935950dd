import { setImmediate as immediate } from 'node:timers/promises';

/**
 * Lets the event loop run its I/O (HTTP requests, timers) before going on. On SQLite every query of
 * better-sqlite3 is synchronous, so a chain of awaits over it is only microtasks and never lets a request in:
 * background work (bulk jobs, their snapshot) awaits this between its steps.
 */
export function yieldToEventLoop(): Promise<void> {
  return immediate();
}
