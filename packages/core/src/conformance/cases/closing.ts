import { expect, it } from 'vitest';
import { NimBusErrorCode } from '../../errors/error-codes.js';
import { isNimBusError } from '../../errors/nimbus-error.js';
import type { Harness } from '../harness.js';

/** A wait that must end on its own within this (the transports' own waits are far longer: 30 s). */
const PROMPT_MS = 2_000;
const LONG_WAIT_MS = 30_000;

const outcomeOf = (call: Promise<unknown>): Promise<{ error: unknown; ms: number }> => {
  const began = Date.now();
  return call.then(
    () => ({ error: null, ms: Date.now() - began }),
    (error: unknown) => ({ error, ms: Date.now() - began }),
  );
};

const isClosed = (error: unknown): boolean => isNimBusError(error, NimBusErrorCode.Closed);

const tick = () => new Promise((resolve) => setTimeout(resolve, 50));

/** The lifecycle verbs of the SPI: `close()` (drain), `abort()` (now) and `closed()`. */
export function closingCases(harness: () => Harness): void {
  for (const verb of ['close', 'abort'] as const) {
    it(`${verb}() ends a waiting accept and a waiting receive at once with Closed; later calls fail with Closed`, async () => {
      const h = harness();
      await h.sendTo('Erp', 'held', 'first');
      const session = await h.accept('Erp', 'held');
      const first = await h.receiveOne(session);
      const receiving = outcomeOf(session.receive({ max: 1, waitMs: LONG_WAIT_MS }));
      const accepting = outcomeOf(h.transport.acceptSession('Billing', { waitMs: LONG_WAIT_MS }));
      await tick();
      await h.transport[verb]();
      const [received, accepted] = await Promise.all([receiving, accepting]);
      expect(isClosed(received.error), `receive: ${String(received.error)}`).toBe(true);
      expect(received.ms).toBeLessThan(PROMPT_MS);
      expect(isClosed(accepted.error), `acceptSession: ${String(accepted.error)}`).toBe(true);
      expect(accepted.ms).toBeLessThan(PROMPT_MS);
      for (const [name, call] of [
        ['publish', h.sendTo('Erp', 'later', 'x')],
        ['acceptSession', h.transport.acceptSession('Erp', { waitMs: 0 })],
        ['counts', h.transport.counts('Erp')],
        ['complete', session.complete(first)],
      ] as const) {
        const { error } = await outcomeOf(call);
        expect(isClosed(error), `${name} after ${verb}(): ${String(error)}`).toBe(true);
        expect((error as { isRetryable?: boolean }).isRetryable).toBe(false);
      }
      expect(h.transport.closed()).toBeInstanceOf(Promise);
    });

    it(`closed() resolves after ${verb}(), not before`, async () => {
      const h = harness();
      let closed = false;
      void h.transport.closed().then(() => {
        closed = true;
      });
      await h.sendTo('Erp', 'lifecycle', 'x');
      await tick();
      expect(closed).toBe(false);
      await h.transport[verb]();
      await h.transport.closed();
      expect(closed).toBe(true);
      await h.transport[verb === 'close' ? 'abort' : 'close']();
      await h.transport.closed();
    });
  }

  it('a receive ends at once when its signal aborts, with nothing; one already aborted takes nothing', async () => {
    const h = harness();
    await h.sendTo('Erp', 'held', 'first');
    const session = await h.accept('Erp', 'held');
    const stopped = new AbortController();
    stopped.abort();
    expect(await session.receive({ max: 1, waitMs: LONG_WAIT_MS, signal: stopped.signal })).toEqual([]);
    const first = await h.receiveOne(session);
    expect(first.body).toBe('first');
    const stopping = new AbortController();
    const waiting = session.receive({ max: 1, waitMs: LONG_WAIT_MS, signal: stopping.signal });
    await tick();
    const began = Date.now();
    stopping.abort();
    expect(await waiting).toEqual([]);
    expect(Date.now() - began).toBeLessThan(PROMPT_MS);
    await session.complete(first);
  });

  it('abort() during a close() ends it; both resolve and closed() with them', async () => {
    const h = harness();
    await h.sendTo('Erp', 'held', 'x');
    await h.accept('Erp', 'held');
    const closing = h.transport.close();
    const aborting = h.transport.abort();
    const { error, ms } = await outcomeOf(Promise.all([closing, aborting, h.transport.closed()]));
    expect(error).toBeNull();
    expect(ms).toBeLessThan(PROMPT_MS * 5);
  });
}
