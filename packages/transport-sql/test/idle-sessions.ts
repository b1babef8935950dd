import { expect, it } from 'vitest';
import type { SqlTransport } from '../src/index.js';
import type { Open } from './behaviour.js';
import { direct, event, topology } from './fixtures.js';

async function sequenceOfNext(transport: SqlTransport, sessionId: string): Promise<number> {
  await transport.publish([{ source: 'Crm', messages: [event(sessionId)] }]);
  const session = await transport.acceptSession('Erp', { sessionId, waitMs: 0 });
  const [message] = await session!.receive({ max: 1, waitMs: 0 });
  await session!.complete(message!);
  await session!.release();
  return message!.sequence;
}

/** Idle session rows go away (observable: a dropped row restarts the session's sequences at 1). */
export function describeIdleSessionCleanup(open: Open): void {
  it('release drops an idle session row but keeps one with state or parked messages', async () => {
    const transport = await open({ idleSessionSweepMs: 0 });
    await transport.applyTopology(topology);
    expect(await sequenceOfNext(transport, 'idle')).toBe(1);
    expect(await sequenceOfNext(transport, 'idle')).toBe(1);

    await transport.publish([{ source: 'Crm', messages: [event('stateful'), event('parking')] }]);
    const stateful = await transport.acceptSession('Erp', { sessionId: 'stateful', waitMs: 0 });
    await stateful!.complete((await stateful!.receive({ max: 1, waitMs: 0 }))[0]!, { state: { step: 1 } });
    await stateful!.release();
    const parking = await transport.acceptSession('Erp', { sessionId: 'parking', waitMs: 0 });
    const [trigger] = await parking!.receive({ max: 1, waitMs: 0 });
    await parking!.complete(trigger!, { park: [{ sequence: 5, message: direct('Erp', 'parking') }] });
    await parking!.release();
    expect(await transport.sweepIdleSessions()).toBe(0);
    expect(await sequenceOfNext(transport, 'stateful')).toBe(2);
    expect(await sequenceOfNext(transport, 'parking')).toBe(2);
  });

  it('the sweep drops rows whose lease lapsed without release, and leaves live leases alone', async () => {
    const transport = await open({ idleSessionSweepMs: 0, lockDurationMs: 200 });
    await transport.applyTopology(topology);
    await transport.publish([{ source: 'Crm', messages: [event('crashed'), event('live')] }]);
    const crashed = await transport.acceptSession('Erp', { sessionId: 'crashed', waitMs: 0 });
    await crashed!.complete((await crashed!.receive({ max: 1, waitMs: 0 }))[0]!);
    // The holder dies here, without release; the row stays until the lease lapses and a sweep runs.
    await new Promise((resolve) => setTimeout(resolve, 250));
    const live = await transport.acceptSession('Erp', { sessionId: 'live', waitMs: 0 });
    await live!.complete((await live!.receive({ max: 1, waitMs: 0 }))[0]!);
    await live!.setState(null);
    expect(await transport.sweepIdleSessions()).toBeGreaterThanOrEqual(1);
    expect(await transport.sweepIdleSessions()).toBe(0);
    await live!.renewLock(); // the live lease's row survived the sweep
    await live!.release();
    expect(await sequenceOfNext(transport, 'crashed')).toBe(1);
    expect(await sequenceOfNext(transport, 'live')).toBe(1);
  });

  it('sweeps racing publishes, accepts and releases lose no message and break no order', async () => {
    const transport = await open({ idleSessionSweepMs: 0 });
    await transport.applyTopology(topology);
    let done = false;
    const sweeper = (async () => {
      let sweeps = 0;
      while (!done) {
        await transport.sweepIdleSessions(10);
        sweeps += 1;
      }
      return sweeps;
    })();
    const received: number[] = [];
    for (let n = 1; n <= 40; n++) {
      await Promise.all([
        transport.publish([{ source: 'Crm', messages: [event('race', { n })] }]),
        transport.sweepIdleSessions(),
      ]);
      const session = await transport.acceptSession('Erp', { sessionId: 'race', waitMs: 1000 });
      expect(session, `accept ${n}`).not.toBeNull();
      for (const message of await session!.receive({ max: 10, waitMs: 0 })) {
        received.push(JSON.parse(message.body).n);
        await session!.complete(message);
      }
      await Promise.all([session!.release(), transport.sweepIdleSessions()]);
    }
    done = true;
    expect(await sweeper).toBeGreaterThan(0);
    expect(received).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(await transport.counts('Erp')).toMatchObject({ active: 0 });
  });
}
