import type {
  AcceptOptions,
  AcceptSessionsOptions,
  InputControl,
  Logger,
  ReceiveOptions,
  SessionHandle,
  Transport,
} from '@nimbus/core';

/** How often a host re-reads whether its input is paused (default). */
export const DEFAULT_PAUSE_POLL_MS = 1_000;

/**
 * Follows the console's pause flag of one input (`InputControl.pausedInputs`), read every `pollMs`. While a
 * read fails the last known state stays (a database outage neither pauses nor resumes a host).
 */
export class PauseWatch {
  #paused = false;
  #timer: NodeJS.Timeout | null = null;
  #waiters = new Set<() => void>();
  /** When reads began to fail (one warning per outage, one line when it ends), and how many failed. */
  #failingSince: number | null = null;
  #failedReads = 0;

  constructor(
    private readonly control: InputControl,
    private readonly input: string,
    private readonly pollMs: number,
    private readonly logger: Logger,
  ) {}

  get paused(): boolean {
    return this.#paused;
  }

  /** Reads the flag once now, then every `pollMs` until `stop()`. */
  async start(): Promise<void> {
    await this.refresh();
    this.#timer ??= setInterval(() => void this.refresh(), this.pollMs);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    this.#wake();
  }

  async refresh(): Promise<void> {
    try {
      const paused = [...(await this.control.pausedInputs())].some(
        (i) => i.toLowerCase() === this.input.toLowerCase(),
      );
      if (this.#failingSince !== null) {
        const downMs = Date.now() - this.#failingSince;
        this.logger.info(
          { input: this.input, downMs, failedReads: this.#failedReads },
          `The input's pause flag is readable again after ${downMs} ms`,
        );
        this.#failingSince = null;
        this.#failedReads = 0;
      }
      if (paused !== this.#paused)
        this.logger.info({ input: this.input, paused }, paused ? 'Input paused' : 'Input resumed');
      this.#paused = paused;
      if (!paused) this.#wake();
    } catch (error) {
      this.#failedReads += 1;
      if (this.#failingSince !== null) return;
      this.#failingSince = Date.now();
      this.logger.warn(
        { input: this.input, err: String(error) },
        'Could not read whether the input is paused; keeping the last known state (logged again when it can)',
      );
    }
  }

  /** Resolves when resumed, after `ms`, or on abort, whichever comes first. */
  waitWhilePaused(ms: number, signal?: AbortSignal): Promise<void> {
    if (!this.#paused || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        this.#waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done, { once: true });
      this.#waiters.add(done);
    });
  }

  #wake(): void {
    for (const waiter of [...this.#waiters]) waiter();
  }
}

function pauseSession(session: SessionHandle, watch: PauseWatch): SessionHandle {
  return new Proxy(session, {
    get(target, property) {
      // An empty batch makes the processor release the session and go back to (paused) accepting.
      if (property === 'receive')
        return async (options: ReceiveOptions) => (watch.paused ? [] : target.receive(options));
      const value = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * A transport whose receiving stops while the watch says paused: `acceptSession` waits (at most its `waitMs`)
 * and takes nothing, and a held session's `receive` returns nothing, so messages in hand finish and no new one
 * starts. Publishing and everything else is delegated unchanged.
 */
export function pausableTransport(transport: Transport, watch: PauseWatch): Transport {
  return new Proxy(transport, {
    get(target, property) {
      if (property === 'acceptSession') {
        return async (input: string, options: AcceptOptions): Promise<SessionHandle | null> => {
          if (watch.paused) {
            await watch.waitWhilePaused(options.waitMs, options.signal);
            if (watch.paused || options.signal?.aborted) return null;
          }
          const session = await target.acceptSession(input, options);
          return session ? pauseSession(session, watch) : null;
        };
      }
      // Stopped the same way, or a processor leasing several sessions at once would get around the pause.
      if (property === 'acceptSessions') {
        const acceptMany = target.acceptSessions?.bind(target);
        if (!acceptMany) return undefined;
        return async (options: AcceptSessionsOptions): Promise<SessionHandle[]> => {
          if (watch.paused) {
            await watch.waitWhilePaused(options.waitMs, options.signal);
            if (watch.paused || options.signal?.aborted) return [];
          }
          return (await acceptMany(options)).map((session) => pauseSession(session, watch));
        };
      }
      const value = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
