/** Where a long-running component is in its life. `failed`: `start()` threw; `stop()` still cleans up. */
export type LifecycleState = 'idle' | 'starting' | 'running' | 'stopping' | 'stopped' | 'failed';

export interface StopOptions {
  /**
   * How long in-flight work may take to finish before it is abandoned (and its signal aborted).
   * Each component documents its default.
   */
  readonly timeoutMs?: number;
}

/**
 * The one lifecycle shape hosts, the Resolver, the WebApp, stores and transports share:
 * `start`, `stop({ timeoutMs })`, a `state`, and `await using` through `Symbol.asyncDispose` (= `stop()`).
 */
export interface ServiceLifecycle extends AsyncDisposable {
  start(): Promise<void>;
  stop(options?: StopOptions): Promise<void>;
  readonly state: LifecycleState;
}

/**
 * Runs a component's start and stop steps once each, in order, tracking `state`: a second `start()` while
 * running is a no-op, `stop()` before `start()` only marks it stopped, concurrent `stop()` calls share one run.
 */
export class LifecycleRunner {
  #state: LifecycleState = 'idle';
  #starting: Promise<void> | null = null;
  #stopping: Promise<void> | null = null;

  constructor(
    private readonly steps: {
      readonly start: () => Promise<void>;
      readonly stop: (options: StopOptions) => Promise<void>;
    },
  ) {}

  get state(): LifecycleState {
    return this.#state;
  }

  start(): Promise<void> {
    if (this.#stopping) return Promise.reject(new Error('Cannot start a component that was stopped'));
    this.#starting ??= (async () => {
      this.#state = 'starting';
      try {
        await this.steps.start();
        this.#state = 'running';
      } catch (error) {
        this.#state = 'failed';
        throw error;
      }
    })();
    return this.#starting;
  }

  stop(options: StopOptions = {}): Promise<void> {
    this.#stopping ??= (async () => {
      await this.#starting?.catch(() => undefined);
      this.#state = 'stopping';
      try {
        await this.steps.stop(options);
      } finally {
        this.#state = 'stopped';
      }
    })();
    return this.#stopping;
  }
}
