/**
 * Lets one "next session" ask per input run at a time in this transport. An ask finds a session on the poll
 * client, gives that lease up and accepts the session by id on the main client. Service Bus hands a session that
 * is given up to a receiver already waiting for the next session; with several asks of one transport waiting at
 * once, that was always one of ours, so the accept by id never won and no session was ever taken (the default 32
 * accept loops took nothing). With one ask at a time, none of ours waits while an ask hands its session over.
 */
export class NextSessionTurns {
  readonly #tails = new Map<string, Promise<void>>();

  /**
   * Runs `ask` once the earlier asks for `input` are done, or gives `null` without running it when `signal`
   * aborts or `deadline` (epoch ms) passes first.
   */
  async run<T>(
    input: string,
    deadline: number,
    signal: AbortSignal | undefined,
    ask: () => Promise<T>,
  ): Promise<T | null> {
    const previous = this.#tails.get(input) ?? Promise.resolve();
    let release!: () => void;
    const done = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => done);
    this.#tails.set(input, tail);
    try {
      if (!(await turnComes(previous, deadline, signal))) return null;
      return await ask();
    } finally {
      release();
      if (this.#tails.get(input) === tail) this.#tails.delete(input);
    }
  }
}

/** True once `previous` settles, false if the wait ends first (abort or deadline). */
function turnComes(
  previous: Promise<void>,
  deadline: number,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise<boolean>((resolve) => {
    const end = (value: boolean) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(value);
    };
    const onAbort = () => end(false);
    const timer = setTimeout(() => end(false), Math.max(0, deadline - Date.now()));
    signal?.addEventListener('abort', onAbort, { once: true });
    void previous.then(() => end(true));
  });
}
