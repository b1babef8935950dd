import { describe, expect, it } from 'vitest';
import { INPUT, memorySetup, processorsStoppedAfterEach, settleTicks, until } from './processor-fixtures.js';

const createProcessor = processorsStoppedAfterEach();

/** Publishes `perSession` messages to each of `sessions` sessions, round by round. */
async function backlog(
  send: (sessionId: string, ...bodies: string[]) => Promise<void>,
  sessions: number,
  perSession: number,
) {
  for (let i = 0; i < perSession; i++) {
    for (let s = 0; s < sessions; s++) await send(`key-${s}`, String(i));
  }
}

/** Position (0-based, in handling order) of each session's first handled message. */
function firstTurns(handled: readonly string[]): Map<string, number> {
  const first = new Map<string, number>();
  handled.forEach((sessionId, index) => {
    if (!first.has(sessionId)) first.set(sessionId, index);
  });
  return first;
}

describe('SessionProcessor turns (more active sessions than slots)', () => {
  it('releases a session after maxMessagesPerTurn, so every session gets its first turn within one round', async () => {
    const { clock, transport, send } = await memorySetup();
    const sessions = 20;
    const perSession = 30;
    const budget = 5;
    await backlog(send, sessions, perSession);
    const handled: string[] = [];
    const bodies = new Map<string, number[]>();
    const processor = createProcessor({
      transport,
      input: INPUT,
      clock,
      maxConcurrentSessions: 2,
      maxMessagesPerTurn: budget,
      maxTurnMs: 0,
      handler: {
        async handleMessage(session, message) {
          handled.push(session.sessionId);
          bodies.set(session.sessionId, [...(bodies.get(session.sessionId) ?? []), Number(message.body)]);
          await session.complete(message);
        },
      },
    });
    await processor.start();
    await until(() => handled.length === sessions * perSession, 'every message handled');
    const first = firstTurns(handled);
    expect(first.size).toBe(sessions);
    // Without the budget the first two sessions would drain (60 messages) before a third one starts.
    expect(Math.max(...first.values())).toBeLessThan(sessions * budget);
    const inOrder = Array.from({ length: perSession }, (_, i) => i);
    for (const list of bodies.values()) expect(list).toEqual(inOrder);
    expect(processor.stats.sessionsAccepted).toBeGreaterThanOrEqual((sessions * perSession) / budget);
  });

  it('releases a session held for maxTurnMs after its current message', async () => {
    const { clock, transport, send } = await memorySetup({ lockDurationMs: 3_600_000 });
    const sessions = 10;
    await backlog(send, sessions, 40);
    const handled: string[] = [];
    const processor = createProcessor({
      transport,
      input: INPUT,
      clock,
      maxConcurrentSessions: 2,
      maxMessagesPerTurn: 0,
      maxTurnMs: 100,
      handler: {
        async handleMessage(session, message) {
          handled.push(session.sessionId);
          clock.advance(10); // each message "takes" 10 ms of the shared clock
          await session.complete(message);
        },
      },
    });
    await processor.start();
    await until(() => handled.length === sessions * 40, 'every message handled');
    // A turn ends once 100 ms have passed; both slots advance the clock, so a turn is at most 10 messages.
    expect(Math.max(...firstTurns(handled).values())).toBeLessThanOrEqual(sessions * 10);
  });

  it('an idle held session gives its slot up at once when another session gets work', async () => {
    const { clock, transport, send } = await memorySetup();
    const handled: string[] = [];
    const processor = createProcessor({
      transport,
      input: INPUT,
      clock,
      maxConcurrentSessions: 2,
      sessionIdleTimeoutMs: 3_600_000,
      handler: {
        async handleMessage(session, message) {
          handled.push(`${session.sessionId}:${message.body}`);
          await session.complete(message);
        },
      },
    });
    await processor.start();
    await send('a', '1');
    await send('b', '1');
    await until(() => handled.length === 2, 'a and b handled');
    await settleTicks();
    expect(processor.stats.activeSessions).toBe(2);
    // Both slots hold idle sessions and the clock never moves: only a yield lets c in.
    await send('c', '1');
    await until(() => handled.includes('c:1'), 'c handled while a and b were idle');
    await send('a', '2');
    await until(() => handled.includes('a:2'), 'a handled again');
    expect(processor.stats.sessionsReleased).toBeGreaterThanOrEqual(1);
  });
});
