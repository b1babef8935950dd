import type { Entry } from './message.js';
import type { Queue } from './queue.js';

/** Messages from `fromSequence` in sequence order, locked or not, deferred included. */
export function peekQueue(
  queue: Queue,
  fromSequence: number,
  max: number,
  sessionId: string | null,
): Entry[] {
  const sessions = sessionId === null ? [...queue.sessions.values()] : [queue.sessions.get(sessionId)];
  const entries: Entry[] = [];
  for (const session of sessions) {
    if (session) entries.push(...session.entries.filter((e) => e.sequence >= fromSequence));
  }
  return entries.sort((a, b) => a.sequence - b.sequence).slice(0, max);
}

/** Ids of the sessions with messages or state, updated since `updatedSince`. */
export function sessionIds(queue: Queue, updatedSince: number): string[] {
  return [...queue.sessions.values()]
    .filter((s) => s.id !== '' && s.updatedAt >= updatedSince && !s.isEmpty)
    .map((s) => s.id);
}
