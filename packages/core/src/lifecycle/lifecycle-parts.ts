import { setMaxListeners } from 'node:events';
import {
  LifecycleRunner,
  type LifecycleRunnerOptions,
  type ServiceLifecycle,
  type StopContext,
  type StopOptions,
  whenAborted,
} from './service-lifecycle.js';

/** What a parent's stop step stops: a component on the one lifecycle. */
export interface StoppableChild {
  stop(options?: StopOptions): Promise<void>;
  abort(): Promise<void>;
}

/**
 * Stops `child` as part of a parent's stop step: with the parent's `timeoutMs`, and aborted (`child.abort()`) as
 * soon as the parent's deadline signal aborts, so a parent's `abort()` reaches its children at once.
 */
export function stopChild(child: StoppableChild, context: StopContext): Promise<void> {
  const { signal, timeoutMs } = context;
  if (signal.aborted) return child.abort();
  const abortChild = () => void child.abort();
  signal.addEventListener('abort', abortChild, { once: true });
  return child
    .stop(timeoutMs === undefined ? {} : { timeoutMs })
    .finally(() => signal.removeEventListener('abort', abortChild));
}

/** The two signals a background loop sees. */
export interface LoopSignals {
  /** Aborted when `stop()` begins: start no new pass (sleeps between passes end at once). */
  readonly stopping: AbortSignal;
  /** Aborted when the stop's `timeoutMs` runs out or on `abort()`: abandon the pass under way. */
  readonly abandon: AbortSignal;
}

/**
 * The lifecycle of a component that is one background loop (schedulers, dispatchers, sweepers): `start()` runs
 * `loop`, `stop()` aborts `stopping` and waits for the pass under way to finish (it drains), until the deadline
 * aborts `abandon`, after which the stop returns and the pass is left to end on its own.
 */
export interface LoopLifecycleOptions extends LifecycleRunnerOptions {
  /** Runs after the loop ended (or was abandoned), e.g. to close a mailer; gets the stop's deadline signal. */
  readonly release?: (signal: AbortSignal) => Promise<void>;
}

export function loopLifecycle(
  loop: (signals: LoopSignals) => Promise<void>,
  options: LoopLifecycleOptions = {},
): LifecycleRunner {
  const stopping = new AbortController();
  const abandon = new AbortController();
  setMaxListeners(0, stopping.signal, abandon.signal);
  let running: Promise<void> = Promise.resolve();
  return new LifecycleRunner(
    {
      start: async () => {
        running = loop({ stopping: stopping.signal, abandon: abandon.signal });
      },
      stop: async ({ signal }) => {
        stopping.abort();
        const abandonWith = () => abandon.abort();
        if (signal.aborted) abandonWith();
        else signal.addEventListener('abort', abandonWith, { once: true });
        try {
          await Promise.race([running, whenAborted(abandon.signal)]);
          await options.release?.(abandon.signal);
        } finally {
          signal.removeEventListener('abort', abandonWith);
        }
      },
    },
    options,
  );
}

/**
 * Gives a factory-made object (`createResolver`, `createHeartbeatScheduler`) the lifecycle members, delegated to
 * `runner`: `state` (live), `start`, `stop`, `abort`, `closed` and `Symbol.asyncDispose` (= `stop()`).
 */
export function withLifecycle<T extends object>(target: T, runner: LifecycleRunner): T & ServiceLifecycle {
  return Object.defineProperties(target, {
    state: { get: () => runner.state, enumerable: true },
    start: { value: () => runner.start(), enumerable: true },
    stop: { value: (options?: StopOptions) => runner.stop(options), enumerable: true },
    abort: { value: () => runner.abort(), enumerable: true },
    closed: { value: () => runner.closed(), enumerable: true },
    [Symbol.asyncDispose]: { value: () => runner.stop() },
  }) as T & ServiceLifecycle;
}
