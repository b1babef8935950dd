import { describe, expect, it } from 'vitest';
import {
  type Clock,
  HandlerCancelledError,
  LeaseFence,
  ManualClock,
  SessionProcessor,
  TransportErrorCode,
} from '../../src/index.js';
import { INPUT, memorySetup } from './processor-fixtures.js';

/** Wall time that stands still (or jumps back) while the monotonic clock goes on, as on a paused or corrected host. */
class SplitClock implements Clock {
  wall = Date.UTC(2026, 0, 1);
  mono = 1_000;
  now = () => this.wall;
  monotonic = () => this.mono;
  sleep = () => new Promise<void>(() => undefined);
}

const session = (lockedUntil: number) => ({
  input: INPUT,
  sessionId: 's1',
  lockedUntil: new Date(lockedUntil),
});

describe('LeaseFence', () => {
  it('measures the lease on the monotonic clock: a pause counts even when the wall clock did not move', () => {
    const clock = new SplitClock();
    const controller = new AbortController();
    const fence = new LeaseFence(session(clock.wall + 3_000), clock, 300, controller);
    fence.check();
    clock.mono += 2_000; // paused for 2 s; the wall clock was set back meanwhile
    clock.wall -= 60_000;
    fence.check();
    clock.mono += 800; // 200 ms left: within the 300 ms margin
    expect(() => fence.check()).toThrow(
      expect.objectContaining({ code: TransportErrorCode.SessionLockLost }),
    );
    expect(controller.signal.aborted).toBe(true);
    expect(controller.signal.reason).toBeInstanceOf(HandlerCancelledError);
    expect((controller.signal.reason as HandlerCancelledError).reason).toBe('lockLost');
    // Once lost, a late renewal does not bring it back: the session is ending.
    fence.renewed(new Date(clock.wall + 30_000));
    expect(() => fence.check()).toThrow(/No handler is started for session 's1'/);
  });

  it('a renewal extends the lease; a refused one loses it at once', () => {
    const clock = new SplitClock();
    const fence = new LeaseFence(session(clock.wall + 3_000), clock, 300, new AbortController());
    clock.mono += 2_500;
    fence.renewed(new Date(clock.wall + 3_000));
    clock.mono += 2_500;
    fence.check();
    fence.lose('a renewal of its lease was refused');
    expect(() => fence.check()).toThrow(/a renewal of its lease was refused/);
  });

  it('the watchdog aborts the signal when no renewal came before the margin (manual clock)', async () => {
    const clock = new ManualClock();
    const controller = new AbortController();
    const lost: string[] = [];
    const fence = new LeaseFence(session(clock.now() + 3_000), clock, 300, controller, (why) =>
      lost.push(why),
    );
    fence.watch();
    clock.advance(2_600);
    await new Promise((resolve) => setImmediate(resolve));
    expect(controller.signal.aborted).toBe(false);
    clock.advance(200);
    await new Promise((resolve) => setImmediate(resolve));
    await fence.stop();
    expect(controller.signal.aborted).toBe(true);
    expect(lost).toEqual([expect.stringMatching(/within the 300 ms safety margin/)]);
  });
});

describe('SessionProcessor lease options', () => {
  it('refuses a renewal interval that leaves no room before the lease ends, naming the options', async () => {
    const { transport } = await memorySetup({ lockDurationMs: 3_000 });
    const handler = { handleMessage: async () => undefined };
    expect(
      () => new SessionProcessor({ transport, input: INPUT, handler, leaseRenewalIntervalMs: 2_800 }),
    ).toThrow(
      /leaseRenewalIntervalMs \(2800\) plus leaseSafetyMarginMs \(300\) must be shorter than the transport's lease \(lockDurationMs 3000\)/,
    );
    expect(() => new SessionProcessor({ transport, input: INPUT, handler, leaseSafetyMarginMs: -1 })).toThrow(
      /leaseSafetyMarginMs must be an integer ≥ 0/,
    );
  });
});
