import { expect, it } from 'vitest';
import { NimBusErrorCode } from '../../errors/error-codes.js';
import { isNimBusError } from '../../errors/nimbus-error.js';
import { isServiceLifecycle, type ServiceLifecycle } from '../../lifecycle/service-lifecycle.js';

/** A store or transport as its factory handed it out, and one cheap call of its own API. */
export interface LifecycleSubject {
  readonly component: object;
  use(): Promise<unknown>;
}

const failureOf = (call: () => Promise<unknown>): Promise<unknown> =>
  Promise.resolve()
    .then(call)
    .then(
      () => null,
      (error: unknown) => error,
    );

/**
 * The lifecycle shape (`ServiceLifecycle`) every store and transport shares, as cases of their conformance
 * suites: opened by its factory (`running`), `start()` and `stop()` idempotent, a clear `Closed` error after
 * `stop()`, and `await using` stopping it.
 */
export function lifecycleCases(open: () => Promise<LifecycleSubject>): void {
  const opened = async (): Promise<{ component: ServiceLifecycle; use: () => Promise<unknown> }> => {
    const subject = await open();
    expect(isServiceLifecycle(subject.component), 'start, stop, state and Symbol.asyncDispose').toBe(true);
    return { component: subject.component as ServiceLifecycle, use: () => subject.use() };
  };

  it('is running when handed out; start() twice is a no-op and it keeps working', async () => {
    const { component, use } = await opened();
    expect(component.state).toBe('running');
    await Promise.all([component.start(), component.start()]);
    await component.start();
    expect(component.state).toBe('running');
    await use();
  });

  it('stop() twice, or concurrently, stops it once; state goes stopping → stopped', async () => {
    const { component } = await opened();
    const first = component.stop({ timeoutMs: 5_000 });
    expect(component.state).toBe('stopping');
    await Promise.all([first, component.stop()]);
    expect(component.state).toBe('stopped');
    await component.stop({ timeoutMs: 0 });
    expect(component.state).toBe('stopped');
  });

  it('a call after stop() fails with a NimBusError Closed that says it was stopped; start() too', async () => {
    const { component, use } = await opened();
    await component.stop();
    const afterStop = await failureOf(use);
    expect(isNimBusError(afterStop, NimBusErrorCode.Closed), String(afterStop)).toBe(true);
    expect((afterStop as Error).message).toMatch(/stopped|closed/i);
    expect((afterStop as { isRetryable: boolean }).isRetryable).toBe(false);
    const restart = await failureOf(() => component.start());
    expect(isNimBusError(restart, NimBusErrorCode.Closed), String(restart)).toBe(true);
    expect(component.state).toBe('stopped');
  });

  it('await using stops it when the block ends (Symbol.asyncDispose)', async () => {
    const { component, use } = await opened();
    {
      await using scoped = component;
      expect(scoped.state).toBe('running');
      await use();
    }
    expect(component.state).toBe('stopped');
    expect(isNimBusError(await failureOf(use), NimBusErrorCode.Closed)).toBe(true);
  });
}
