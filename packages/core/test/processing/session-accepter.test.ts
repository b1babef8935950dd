import { afterEach, describe, expect, it } from 'vitest';
import {
  type AcceptSessionsOptions,
  type SessionHandle,
  SessionProcessor,
  type Transport,
} from '../../src/index.js';
import { INPUT, memorySetup, quietLogger, until } from './processor-fixtures.js';

const processors: SessionProcessor[] = [];

afterEach(async () => {
  await Promise.all(processors.splice(0).map((p) => p.stop()));
});

/** The memory transport with an `acceptSessions` built from its `acceptSession`, recording every call. */
function withAcceptSessions(transport: Transport) {
  const calls = { many: [] as number[] };
  const acceptSessions = async ({ input, max, waitMs, signal }: AcceptSessionsOptions) => {
    calls.many.push(max);
    const sessions: SessionHandle[] = [];
    while (sessions.length < max) {
      const next = await transport.acceptSession(input, {
        waitMs: sessions.length === 0 ? waitMs : 0,
        ...(signal ? { signal } : {}),
      });
      if (!next) break;
      sessions.push(next);
    }
    return sessions;
  };
  const wrapped = new Proxy(transport, {
    get(target, key) {
      if (key === 'acceptSessions') return acceptSessions;
      const value = Reflect.get(target, key, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { wrapped, calls };
}

describe('SessionProcessor with acceptSessions', () => {
  it('leases the sessions of the loops that are free together in one acceptSessions call, oldest first', async () => {
    const { clock, transport, send } = await memorySetup();
    for (const session of ['a', 'b', 'c', 'd', 'e', 'f']) await send(session, `${session}1`, `${session}2`);
    const { wrapped, calls } = withAcceptSessions(transport);
    const handled: string[] = [];
    const accepted: string[] = [];
    const processor = new SessionProcessor({
      transport: wrapped,
      input: INPUT,
      clock,
      logger: quietLogger,
      maxConcurrentSessions: 4,
      sessionIdleTimeoutMs: 1,
      handler: {
        onSessionAccepted: async (session) => {
          accepted.push(session.sessionId);
        },
        async handleMessage(session, message) {
          handled.push(message.body);
          await session.complete(message);
        },
      },
    });
    processors.push(processor);
    await processor.start();
    // Idle sessions end on the manual clock: move it while waiting, so e and f get a turn.
    await until(() => {
      clock.advance(5);
      return handled.length === 12;
    }, '12 messages handled');
    // All four loops were free at start: one call for four sessions, handed out oldest ready first.
    expect(calls.many[0]).toBe(4);
    expect(accepted.slice(0, 4)).toEqual(['a', 'b', 'c', 'd']);
    for (const session of ['a', 'b', 'c', 'd', 'e', 'f'])
      expect(handled.filter((body) => body.startsWith(session))).toEqual([`${session}1`, `${session}2`]);
  });

  it('accepts alone when the transport has no acceptSessions', async () => {
    const { clock, transport, send } = await memorySetup();
    await send('only', 'x');
    const handled: string[] = [];
    const processor = new SessionProcessor({
      transport,
      input: INPUT,
      clock,
      logger: quietLogger,
      maxConcurrentSessions: 3,
      handler: {
        async handleMessage(session, message) {
          handled.push(message.body);
          await session.complete(message);
        },
      },
    });
    processors.push(processor);
    await processor.start();
    await until(() => handled.length === 1, 'the message handled');
    expect(handled).toEqual(['x']);
  });
});
