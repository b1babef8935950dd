import { describe, expect, it } from 'vitest';
import {
  isNimBusError,
  isServiceLifecycle,
  LifecycleRunner,
  NimBusErrorCode,
  type StopContext,
  TransportError,
  TransportErrorCode,
} from '../../src/index.js';

const failureOf = (call: () => unknown): unknown => {
  try {
    call();
    return null;
  } catch (error) {
    return error;
  }
};

describe('LifecycleRunner', () => {
  it('runs the start step once for concurrent and repeated starts: created → starting → running', async () => {
    let starts = 0;
    let release = () => {};
    const runner = new LifecycleRunner({
      start: () => {
        starts += 1;
        return new Promise<void>((resolve) => {
          release = resolve;
        });
      },
      stop: async () => {},
    });
    expect(runner.state).toBe('created');
    const first = runner.start();
    const second = runner.start();
    expect(runner.state).toBe('starting');
    release();
    await Promise.all([first, second, runner.start()]);
    expect(runner.state).toBe('running');
    expect(starts).toBe(1);
  });

  it('begins running when there is no start step (a component its factory opened)', async () => {
    const runner = new LifecycleRunner({ stop: async () => {} });
    expect(runner.state).toBe('running');
    await runner.start();
    expect(runner.state).toBe('running');
  });

  it('a failed start leaves it failed, unusable, and still stoppable', async () => {
    let stops = 0;
    const runner = new LifecycleRunner(
      {
        start: async () => {
          throw new Error('port in use');
        },
        stop: async () => {
          stops += 1;
        },
      },
      { name: 'the WebApp' },
    );
    await expect(runner.start()).rejects.toThrow('port in use');
    expect(runner.state).toBe('failed');
    const unusable = failureOf(() => runner.assertUsable('listen'));
    expect(isNimBusError(unusable, NimBusErrorCode.Closed)).toBe(true);
    expect((unusable as Error).message).toBe('The WebApp failed to start; listen cannot be called');
    await runner.stop();
    expect(runner.state).toBe('stopped');
    expect(stops).toBe(1);
  });

  it('stops once for repeated and concurrent stops; is stopping as soon as stop() returns', async () => {
    let stops = 0;
    const runner = new LifecycleRunner({
      stop: async () => {
        stops += 1;
        await new Promise((resolve) => setTimeout(resolve, 20));
      },
    });
    const first = runner.stop();
    expect(runner.state).toBe('stopping');
    await Promise.all([first, runner.stop(), runner.stop({ timeoutMs: 1 })]);
    expect(runner.state).toBe('stopped');
    expect(stops).toBe(1);
  });

  it('gives the stop step a signal that aborts when timeoutMs runs out, and none without a timeout', async () => {
    const seen: StopContext[] = [];
    let abortedAfterMs = -1;
    const timed = new LifecycleRunner({
      stop: async (context) => {
        seen.push(context);
        const began = Date.now();
        await new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve()));
        abortedAfterMs = Date.now() - began;
      },
    });
    await timed.stop({ timeoutMs: 50 });
    expect(seen[0]?.timeoutMs).toBe(50);
    expect(abortedAfterMs).toBeGreaterThanOrEqual(40);
    const untimed = new LifecycleRunner({
      stop: async (context) => {
        seen.push(context);
      },
    });
    await untimed.stop();
    expect(seen[1]?.signal.aborted).toBe(false);
  });

  it('abort() stops with the deadline already aborted, and cuts a running stop short', async () => {
    const signals: AbortSignal[] = [];
    const waitForDeadline = async (context: StopContext) => {
      signals.push(context.signal);
      if (!context.signal.aborted)
        await new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve()));
    };
    const aborted = new LifecycleRunner({ stop: waitForDeadline });
    await aborted.abort();
    expect(signals[0]?.aborted).toBe(true);
    expect(aborted.state).toBe('stopped');

    const draining = new LifecycleRunner({ stop: waitForDeadline });
    const drain = draining.stop({ timeoutMs: 60_000 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(signals[1]?.aborted).toBe(false);
    const began = Date.now();
    await Promise.all([draining.abort(), drain]);
    expect(Date.now() - began).toBeLessThan(1_000);
    expect(signals[1]?.aborted).toBe(true);
    expect(
      isNimBusError(
        failureOf(() => draining.assertUsable()),
        NimBusErrorCode.Closed,
      ),
    ).toBe(true);
  });

  it('is unusable already inside the stop step (a waiter it wakes synchronously sees it stopped)', async () => {
    let seen: unknown = 'not called';
    const runner: LifecycleRunner = new LifecycleRunner({
      stop: async () => {
        seen = failureOf(() => runner.assertUsable('receive'));
      },
    });
    await runner.stop();
    expect(isNimBusError(seen, NimBusErrorCode.Closed), String(seen)).toBe(true);
  });

  it('closed() resolves when the stop step ends (after stop or abort, also when it threw), not before', async () => {
    let finish = () => {};
    const runner = new LifecycleRunner({
      stop: () =>
        new Promise<void>((resolve) => {
          finish = resolve;
        }),
    });
    let closed = false;
    void runner.closed().then(() => {
      closed = true;
    });
    const stopping = runner.stop();
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    finish();
    await stopping;
    await runner.closed();
    expect(closed).toBe(true);

    const failing = new LifecycleRunner({
      stop: async () => {
        throw new TransportError(TransportErrorCode.ServiceUnavailable, 'disk gone');
      },
    });
    await expect(failing.abort()).rejects.toThrow('disk gone');
    await expect(failing.closed()).resolves.toBeUndefined();
  });

  it('after stop: assertUsable and start fail with the component’s own Closed error, naming it', async () => {
    const runner = new LifecycleRunner(
      { stop: async () => {} },
      { name: 'the SQL transport', closedError: (m) => new TransportError(TransportErrorCode.Closed, m) },
    );
    runner.assertUsable('publish');
    await runner.stop();
    const afterStop = failureOf(() => runner.assertUsable('publish'));
    expect(afterStop).toBeInstanceOf(TransportError);
    expect((afterStop as Error).message).toBe(
      'The SQL transport was stopped; publish cannot be called after stop()',
    );
    expect((failureOf(() => runner.assertUsable()) as Error).message).toBe(
      'The SQL transport was stopped; it cannot be used after stop()',
    );
    await expect(runner.start()).rejects.toBeInstanceOf(TransportError);
    expect(runner.state).toBe('stopped');
  });

  it('isServiceLifecycle tells the shape apart', () => {
    const runner = new LifecycleRunner({ stop: async () => {} });
    const component = {
      start: () => runner.start(),
      stop: () => runner.stop(),
      abort: () => runner.abort(),
      closed: () => runner.closed(),
      get state() {
        return runner.state;
      },
      [Symbol.asyncDispose]: () => runner.stop(),
    };
    expect(isServiceLifecycle(component)).toBe(true);
    const { abort: _abort, ...withoutAbort } = component;
    expect(isServiceLifecycle(withoutAbort), 'no abort(): not the one lifecycle').toBe(false);
    expect(isServiceLifecycle({ start: component.start, stop: component.stop })).toBe(false);
    expect(isServiceLifecycle(null)).toBe(false);
  });
});
