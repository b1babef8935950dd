import { afterEach, describe, expect, it } from 'vitest';
import { NimBusErrorCode } from '../errors/error-codes.js';
import { isNimBusError, NimBusError } from '../errors/nimbus-error.js';
import { isServiceLifecycle, type ServiceLifecycle, whenAborted } from '../lifecycle/service-lifecycle.js';

/** The work the suite hands a component: it runs while the suite holds it, and watches `signal` when given one. */
export type HeldWork = (signal?: AbortSignal) => Promise<void>;

export interface LifecycleConformanceFixture {
  /** A fresh component, not started. */
  readonly component: ServiceLifecycle;
  /**
   * Makes the (running) component take up one unit of work that calls the factory's `work` (e.g. sends a message
   * its handler gets, or lets its next poll begin). Absent for a component with no work of its own to hold (a
   * listener): the drain case is skipped and the others run on an idle component.
   */
  readonly trigger?: () => Promise<void>;
  /** Whether the component hands its work a signal that its stop deadline and `abort()` abort. */
  readonly signalsWork: boolean;
  readonly cleanup?: () => Promise<void>;
}

/** Called before every case with the work the component must run when triggered. */
export type LifecycleConformanceFactory = (work: HeldWork) => Promise<LifecycleConformanceFixture>;

/** How long a stop that must not wait for held work may take (a slow shared CI machine). */
const PROMPT_MS = 2_000;

class WorkGate {
  #enter: () => void = () => undefined;
  #release: () => void = () => undefined;
  readonly entered = new Promise<void>((resolve) => {
    this.#enter = resolve;
  });
  readonly released = new Promise<void>((resolve) => {
    this.#release = resolve;
  });
  finished = false;
  signal: AbortSignal | undefined;

  readonly work: HeldWork = async (signal) => {
    if (this.signal === undefined) this.signal = signal;
    this.#enter();
    await Promise.race([this.released, signal ? whenAborted(signal) : new Promise<never>(() => undefined)]);
    if (signal?.aborted)
      throw signal.reason ?? new NimBusError(NimBusErrorCode.HandlerCancelled, 'the held work was aborted');
    this.finished = true;
  };

  release(): void {
    this.#release();
  }
}

const failureOf = (call: () => Promise<unknown>): Promise<unknown> =>
  Promise.resolve()
    .then(call)
    .then(
      () => null,
      (error: unknown) => error,
    );

async function elapsedMs(work: Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work;
  return performance.now() - started;
}

/**
 * Registers the lifecycle contract of a long-running component (`ServiceLifecycle` on a `LifecycleRunner`) as a
 * vitest suite titled `Lifecycle conformance [name]`: start → running, a second start shares the first, `stop()`
 * drains work under way within `timeoutMs` and aborts its signal past it, `abort()` ends at once, `closed()`,
 * no restart after stop (`Closed`), concurrent stops share one run, and stop before start.
 */
export function describeLifecycleConformance(name: string, factory: LifecycleConformanceFactory): void {
  describe(`Lifecycle conformance [${name}]`, () => {
    let gate = new WorkGate();
    let fixture: LifecycleConformanceFixture | undefined;
    const open = async (): Promise<LifecycleConformanceFixture> => {
      gate = new WorkGate();
      fixture = await factory(gate.work);
      expect(isServiceLifecycle(fixture.component), 'start, stop, abort, closed, state, asyncDispose').toBe(
        true,
      );
      return fixture;
    };
    const running = async (): Promise<LifecycleConformanceFixture> => {
      const opened = await open();
      await opened.component.start();
      return opened;
    };
    /** Running with the held work under way (when the component has work to hold). */
    const busy = async (): Promise<LifecycleConformanceFixture> => {
      const opened = await running();
      if (opened.trigger) {
        await opened.trigger();
        await gate.entered;
      }
      return opened;
    };
    const holdsWork = () => fixture?.trigger !== undefined;

    afterEach(async () => {
      gate.release();
      await fixture?.component.abort();
      await fixture?.cleanup?.();
      fixture = undefined;
    });

    it('is created until start(); start() makes it running', async () => {
      const { component } = await open();
      expect(component.state).toBe('created');
      await component.start();
      expect(component.state).toBe('running');
    });

    it('a second start() shares the first and it keeps running', async () => {
      const { component } = await open();
      await Promise.all([component.start(), component.start()]);
      await component.start();
      expect(component.state).toBe('running');
    });

    it('stop() drains: the work under way finishes within timeoutMs', async (context) => {
      const { component } = await busy();
      if (!holdsWork()) context.skip('the component has no work of its own to hold');
      const stopping = component.stop({ timeoutMs: 10_000 });
      expect(component.state).toBe('stopping');
      setTimeout(() => gate.release(), 50);
      await stopping;
      expect(gate.finished, 'the held work finished').toBe(true);
      expect(gate.signal?.aborted ?? false).toBe(false);
      expect(component.state).toBe('stopped');
    });

    it('stop() with a tiny timeoutMs returns promptly and aborts the signal of the work under way', async () => {
      const { component, signalsWork } = await busy();
      expect(await elapsedMs(component.stop({ timeoutMs: 40 }))).toBeLessThan(PROMPT_MS);
      expect(gate.finished).toBe(false);
      if (signalsWork && holdsWork()) expect(gate.signal?.aborted, 'the work signal is aborted').toBe(true);
      expect(component.state).toBe('stopped');
    });

    it('abort() ends at once, without waiting for the work under way', async () => {
      const { component, signalsWork } = await busy();
      expect(await elapsedMs(component.abort())).toBeLessThan(PROMPT_MS);
      expect(gate.finished).toBe(false);
      if (signalsWork && holdsWork()) expect(gate.signal?.aborted, 'the work signal is aborted').toBe(true);
      expect(component.state).toBe('stopped');
    });

    it('closed() resolves once it is stopped, not before', async () => {
      const { component } = await running();
      let closed = false;
      void component.closed().then(() => {
        closed = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(closed).toBe(false);
      await component.stop();
      await component.closed();
      expect(closed).toBe(true);
    });

    it('start() after stop() rejects with Closed: a stopped component is not restarted', async () => {
      const { component } = await running();
      await component.stop();
      const restart = await failureOf(() => component.start());
      expect(isNimBusError(restart, NimBusErrorCode.Closed), String(restart)).toBe(true);
      expect(component.state).toBe('stopped');
    });

    it('concurrent stop() calls share one run: neither ends before the work under way', async () => {
      const { component } = await busy();
      let ended = 0;
      const stops = [
        component.stop({ timeoutMs: 10_000 }),
        component.stop(),
        component[Symbol.asyncDispose](),
      ];
      for (const stop of stops)
        void stop.then(() => {
          ended += 1;
        });
      await new Promise((resolve) => setTimeout(resolve, 50));
      if (holdsWork()) expect(ended, 'no stop ends before the held work').toBe(0);
      gate.release();
      await Promise.all(stops);
      expect(ended).toBe(stops.length);
      expect(gate.finished).toBe(holdsWork());
      expect(component.state).toBe('stopped');
    });

    it('stop() before start() only marks it stopped; start() then rejects with Closed', async () => {
      const { component } = await open();
      await component.stop();
      expect(component.state).toBe('stopped');
      await component.closed();
      expect(isNimBusError(await failureOf(() => component.start()), NimBusErrorCode.Closed)).toBe(true);
    });
  });
}
