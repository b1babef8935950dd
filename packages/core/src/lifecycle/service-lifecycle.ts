import { NimBusErrorCode } from '../errors/error-codes.js';
import { NimBusError } from '../errors/nimbus-error.js';

/**
 * Where a long-running component is in its life. `created`: not started yet; `failed`: `start()` threw (a
 * `stop()` still cleans up). Stores and transports are opened by their factory and begin `running`.
 */
export type LifecycleState = 'created' | 'starting' | 'running' | 'stopping' | 'stopped' | 'failed';

export interface StopOptions {
  /**
   * How long in-flight work may take to finish before it is abandoned (and its signal aborted).
   * Each component documents its default.
   */
  readonly timeoutMs?: number;
}

/** What a component's stop step gets: the caller's options and a signal aborted when `timeoutMs` runs out. */
export interface StopContext extends StopOptions {
  readonly signal: AbortSignal;
}

/**
 * The one lifecycle shape every long-running component shares (processors, hosts, the Resolver, schedulers,
 * dispatchers, listeners, the WebApp, stores and transports): `start`, `stop({ timeoutMs })` (drains: work under
 * way may finish within `timeoutMs`, then its signal is aborted), `abort()` (stops now, abandoning work under
 * way), `closed()`, a `state`, and `await using` through `Symbol.asyncDispose` (= `stop()`). Each runs on a
 * `LifecycleRunner`: a stopped component is not restarted (`start()` after `stop()` fails with `Closed`).
 */
export interface ServiceLifecycle extends AsyncDisposable {
  start(): Promise<void>;
  stop(options?: StopOptions): Promise<void>;
  /** `stop()` without the drain: work under way has its signal aborted at once. Shares the one stop run. */
  abort(): Promise<void>;
  /** Resolves once the component is stopped (by `stop()`, `abort()` or disposal); never rejects. */
  closed(): Promise<void>;
  readonly state: LifecycleState;
}

/** Whether `value` has the lifecycle shape (for code that takes any component, e.g. the conformance suites). */
export function isServiceLifecycle(value: unknown): value is ServiceLifecycle {
  const candidate = value as Partial<Record<string | symbol, unknown>> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.start === 'function' &&
    typeof candidate.stop === 'function' &&
    typeof candidate.state === 'string' &&
    typeof candidate.abort === 'function' &&
    typeof candidate.closed === 'function' &&
    typeof candidate[Symbol.asyncDispose] === 'function'
  );
}

export interface LifecycleSteps {
  /** Absent for a component its factory already opened (stores, transports): it begins `running`. */
  readonly start?: () => Promise<void>;
  /** Releases what the component holds; once `signal` aborts, it abandons what is left and returns. */
  readonly stop: (context: StopContext) => Promise<void>;
}

export interface LifecycleRunnerOptions {
  /** How errors name the component, e.g. `the SQL transport`. Default `the component`. */
  readonly name?: string;
  /** The error for a call after `stop()` (default: a `NimBusError` with code `Closed`). */
  readonly closedError?: (message: string) => Error;
  /** Hears every state change (after `state` reads the new value); it must not throw. */
  readonly onStateChange?: (state: LifecycleState) => void;
}

/**
 * Runs a component's start and stop steps once each, in order, tracking `state`: a second `start()` while
 * starting or running shares the first, `stop()` before `start()` only marks it stopped, concurrent or repeated
 * `stop()` calls share one run, and `start()` after `stop()` fails (a stopped component is not restarted).
 * `assertUsable()` is the guard a component's operations call: after `stop()` they fail with the closed error.
 */
export class LifecycleRunner {
  #state: LifecycleState;
  #starting: Promise<void> | null = null;
  #stopping: Promise<void> | null = null;
  /** The deadline of the stop run under way; `abort()` aborts it now. */
  #deadline: AbortController | null = null;
  #abortRequested = false;
  readonly #stopped: Promise<void>;
  #markStopped: () => void = () => undefined;
  readonly #name: string;
  readonly #closedError: (message: string) => Error;
  readonly #onStateChange: ((state: LifecycleState) => void) | undefined;

  constructor(
    private readonly steps: LifecycleSteps,
    options: LifecycleRunnerOptions = {},
  ) {
    this.#name = options.name ?? 'the component';
    this.#closedError =
      options.closedError ?? ((message) => new NimBusError(NimBusErrorCode.Closed, message));
    this.#onStateChange = options.onStateChange;
    this.#state = steps.start ? 'created' : 'running';
    if (!steps.start) this.#starting = Promise.resolve();
    this.#stopped = new Promise((resolve) => {
      this.#markStopped = resolve;
    });
  }

  get state(): LifecycleState {
    return this.#state;
  }

  #enter(state: LifecycleState): void {
    this.#state = state;
    this.#onStateChange?.(state);
  }

  start(): Promise<void> {
    if (this.#stopping || this.#state === 'stopping')
      return Promise.reject(
        this.#closedError(
          `${capitalized(this.#name)} was stopped and cannot be started again; create a new one`,
        ),
      );
    const start = this.steps.start;
    this.#starting ??= (async () => {
      this.#enter('starting');
      try {
        await start?.();
        this.#enter('running');
      } catch (error) {
        this.#enter('failed');
        throw error;
      }
    })();
    return this.#starting;
  }

  stop(options: StopOptions = {}): Promise<void> {
    this.#stopping ??= (async () => {
      // Synchronous unless a start is under way, so `state` reads `stopping` as soon as `stop()` returns.
      if (this.#state === 'starting') await this.#starting?.catch(() => undefined);
      this.#enter('stopping');
      const deadline = new AbortController();
      this.#deadline = deadline;
      if (this.#abortRequested) deadline.abort();
      const timer =
        options.timeoutMs === undefined ? undefined : setTimeout(() => deadline.abort(), options.timeoutMs);
      timer?.unref();
      try {
        await this.steps.stop({ ...options, signal: deadline.signal });
      } finally {
        clearTimeout(timer);
        this.#enter('stopped');
        this.#markStopped();
      }
    })();
    return this.#stopping;
  }

  /**
   * `stop()` without the wait: the stop step's deadline signal is aborted from the start (so it abandons work under
   * way at once), and a `stop()` already running has its deadline aborted now. Shares the one stop run.
   */
  abort(): Promise<void> {
    this.#abortRequested = true;
    this.#deadline?.abort();
    return this.stop();
  }

  /** Resolves once the component is stopped (its stop step ended, also when it threw); never rejects. */
  closed(): Promise<void> {
    return this.#stopped;
  }

  /** Throws the closed error (naming `operation` when given) once `stop()` was called or `start()` failed. */
  assertUsable(operation?: string): void {
    const what = operation ? `${operation} cannot be called` : 'it cannot be used';
    // `stopping` too: a stop step that wakes waiters synchronously runs before `#stopping` is assigned.
    if (this.#stopping || this.#state === 'stopping')
      throw this.#closedError(`${capitalized(this.#name)} was stopped; ${what} after stop()`);
    if (this.#state === 'failed')
      throw this.#closedError(`${capitalized(this.#name)} failed to start; ${what}`);
  }
}

/**
 * The lifecycle members, delegated to the subclass's `LifecycleRunner`: the base of stores and transports, whose
 * lifecycle is only their steps. `close()` is `stop()` (the name the `Transport` SPI and older code use).
 */
export abstract class RunnerLifecycle implements ServiceLifecycle {
  protected abstract readonly lifecycle: LifecycleRunner;

  get state(): LifecycleState {
    return this.lifecycle.state;
  }

  start(): Promise<void> {
    return this.lifecycle.start();
  }

  stop(options?: StopOptions): Promise<void> {
    return this.lifecycle.stop(options);
  }

  close(): Promise<void> {
    return this.stop();
  }

  /** Stops without waiting for work under way (`LifecycleRunner.abort`). */
  abort(): Promise<void> {
    return this.lifecycle.abort();
  }

  /** Resolves once stopped, by `stop()`, `close()` or `abort()`; never rejects. */
  closed(): Promise<void> {
    return this.lifecycle.closed();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.stop();
  }
}

/** Resolves when `signal` aborts: a stop step races what it waits for against its deadline. */
export function whenAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
