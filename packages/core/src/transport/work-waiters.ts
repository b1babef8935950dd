import type { Clock } from '../clock.js';

/** Why a wait ended: new work for it, its time ran out (poll), a stop signal, or a request to give its session up. */
export type WakeReason = 'work' | 'timeout' | 'aborted' | 'yield';

interface Waiter {
  readonly input: string;
  /** The session this waiter is for (a receive, or an accept of a named session); null: any session. */
  readonly sessionId: string | null;
  /** A receive on a held session: may be asked to yield so its slot serves another session. */
  readonly holdsSession: boolean;
  end(reason: WakeReason): void;
  fail(error: Error): void;
}

interface InputWaiters {
  /** Accepts of the next available session, longest waiting first. */
  readonly anySession: Set<Waiter>;
  /** Receives on held sessions and accepts of named sessions, per session. */
  readonly bySession: Map<string, Set<Waiter>>;
  /** Receives on held sessions, longest waiting first (candidates for yielding). */
  readonly holders: Set<Waiter>;
  /**
   * Units of work nobody was waiting for, by session, with the time they were noted: a consumer between two
   * statements (an accept in flight, a polling receive) claims one when it next waits, so no wake-up is lost.
   */
  readonly unclaimed: Map<string, number>;
  /** Accept calls running (waiting or querying); while one runs, work is left for it instead of asking for a yield. */
  accepting: number;
}

/** Unclaimed work older than this is dropped: a consumer has looked since (every wait polls at least this often). */
const UNCLAIMED_TTL_MS = 1_000;
const MAX_UNCLAIMED = 1_024;

/**
 * In-process wake-ups for the consumers of one transport, one waiter per unit of new work: a message for a
 * session wakes the receive waiting on that session; if nobody holds it here, one accept waiter of the input
 * (longest waiting first); if every accept loop is busy, one idle session holder is asked to yield
 * (its receive returns empty, the processor releases the session and its accept loop takes the session that has
 * waited longest). Waking every waiter on an input would make each re-run its receive statement for nothing.
 */
export class WorkWaiters {
  readonly #inputs = new Map<string, InputWaiters>();
  #closedWith: Error | null = null;
  #holderWaitsStarted = 0;

  constructor(private readonly clock: Clock) {}

  /**
   * Waits for work on `input` (`sessionId` null: any session; else that session) for at most `ms` of clock
   * time. `holdsSession`: the caller is a receive on a session it holds (it may be asked to yield).
   */
  wait(
    input: string,
    sessionId: string | null,
    ms: number,
    options: { readonly signal?: AbortSignal; readonly holdsSession?: boolean } = {},
  ): Promise<WakeReason> {
    if (this.#closedWith) return Promise.reject(this.#closedWith);
    const { signal } = options;
    if (signal?.aborted) return Promise.resolve('aborted');
    return new Promise<WakeReason>((resolve, reject) => {
      const timer = new AbortController();
      let ended: WakeReason | null = null;
      const onAbort = () => waiter.end('aborted');
      const detach = () => {
        this.#remove(waiter);
        signal?.removeEventListener('abort', onAbort);
      };
      const waiter: Waiter = {
        input,
        sessionId,
        holdsSession: options.holdsSession === true && sessionId !== null,
        end: (reason) => {
          if (ended) return;
          ended = reason;
          detach();
          timer.abort();
        },
        fail: (error) => {
          if (ended) return;
          ended = 'aborted';
          detach();
          timer.abort();
          reject(error);
        },
      };
      const claimed = this.#claim(input, sessionId, waiter.holdsSession);
      if (claimed) {
        ended = claimed;
        resolve(claimed);
        return;
      }
      this.#add(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.clock.sleep(Math.max(0, ms), timer.signal).then(() => {
        if (!ended) {
          ended = 'timeout';
          detach();
        }
        resolve(ended);
      }, reject);
    });
  }

  /** New work for these sessions of `input` (one unit each). */
  notifyWork(input: string, sessionIds: Iterable<string>): void {
    const waiters = this.#waitersOf(input);
    for (const sessionId of sessionIds) {
      const own = waiters.bySession.get(sessionId);
      if (own && own.size > 0) {
        for (const waiter of [...own]) waiter.end('work');
        continue;
      }
      const accept = first(waiters.anySession);
      if (accept) {
        accept.end('work');
        continue;
      }
      const holder = waiters.accepting === 0 ? first(waiters.holders) : undefined;
      if (holder) {
        holder.end('yield');
        continue;
      }
      this.#noteUnclaimed(waiters, sessionId);
    }
  }

  /**
   * Accept calls running on `input` now (waiting or querying). While none runs, no consumer of this process
   * would take a session that is waiting: an idle holder should give its own up for it.
   */
  acceptsRunning(input: string): number {
    return this.#inputs.get(input)?.accepting ?? 0;
  }

  /** How many receives on held sessions have begun to wait so far (a poller looks soon after a new one). */
  get holderWaitsStarted(): number {
    return this.#holderWaitsStarted;
  }

  /** The sessions whose holder's receive waits now, per input (what a poller looks for work for). */
  waitingHolders(): [input: string, sessionIds: string[]][] {
    const result: [string, string[]][] = [];
    for (const [input, waiters] of this.#inputs) {
      const sessions = new Set<string>();
      for (const waiter of waiters.holders) if (waiter.sessionId !== null) sessions.add(waiter.sessionId);
      if (sessions.size > 0) result.push([input, [...sessions]]);
    }
    return result;
  }

  /** How many accepts of the next available session wait on `input` now. */
  waitingAccepts(input: string): number {
    return this.#inputs.get(input)?.anySession.size ?? 0;
  }

  /** A consumer of this process leased or received from the session: work noted for it is no longer unclaimed. */
  taken(input: string, sessionId: string): void {
    this.#inputs.get(input)?.unclaimed.delete(sessionId);
  }

  /** Marks an accept call as running on `input` until the returned function is called. */
  beginAccept(input: string): () => void {
    const waiters = this.#waitersOf(input);
    waiters.accepting += 1;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      waiters.accepting -= 1;
    };
  }

  /** A successful accept after a wake-up: one more accept waiter looks, as more sessions may be waiting. */
  passOn(input: string): void {
    const waiters = this.#inputs.get(input);
    if (waiters) first(waiters.anySession)?.end('work');
  }

  /** Anything on `input` may have changed (an operator action, a notification without sessions): wakes all. */
  notifyInput(input: string): void {
    const waiters = this.#inputs.get(input);
    if (!waiters) return;
    for (const waiter of [...waiters.anySession, ...[...waiters.bySession.values()].flatMap((s) => [...s])])
      waiter.end('work');
  }

  /** Wakes every waiter of every input (topology change, lost notifications after a reconnect). */
  notifyAll(): void {
    for (const input of [...this.#inputs.keys()]) this.notifyInput(input);
  }

  /** Fails every current and later wait with `error`. */
  close(error: Error): void {
    this.#closedWith = error;
    for (const waiters of [...this.#inputs.values()]) {
      for (const waiter of [...waiters.anySession]) waiter.fail(error);
      for (const set of [...waiters.bySession.values()]) for (const waiter of [...set]) waiter.fail(error);
    }
  }

  #waitersOf(input: string): InputWaiters {
    let waiters = this.#inputs.get(input);
    if (!waiters) {
      waiters = {
        anySession: new Set(),
        bySession: new Map(),
        holders: new Set(),
        unclaimed: new Map(),
        accepting: 0,
      };
      this.#inputs.set(input, waiters);
    }
    return waiters;
  }

  #noteUnclaimed(waiters: InputWaiters, sessionId: string): void {
    waiters.unclaimed.delete(sessionId);
    waiters.unclaimed.set(sessionId, this.clock.now());
    if (waiters.unclaimed.size > MAX_UNCLAIMED) waiters.unclaimed.delete(first(waiters.unclaimed.keys())!);
  }

  /** Work noted while nobody waited: a session's own, or (accepts, idle holders) any fresh unit. */
  #claim(input: string, sessionId: string | null, holdsSession: boolean): WakeReason | null {
    const waiters = this.#inputs.get(input);
    if (!waiters || waiters.unclaimed.size === 0) return null;
    const now = this.clock.now();
    for (const [key, notedAt] of waiters.unclaimed) {
      if (now - notedAt <= UNCLAIMED_TTL_MS) break;
      waiters.unclaimed.delete(key);
    }
    if (sessionId !== null && waiters.unclaimed.delete(sessionId)) return 'work';
    if (sessionId !== null && !holdsSession) return null;
    const any = first(waiters.unclaimed.keys());
    if (any === undefined) return null;
    waiters.unclaimed.delete(any);
    return sessionId === null ? 'work' : 'yield';
  }

  #add(waiter: Waiter): void {
    const waiters = this.#waitersOf(waiter.input);
    if (waiter.sessionId === null) {
      waiters.anySession.add(waiter);
      return;
    }
    let own = waiters.bySession.get(waiter.sessionId);
    if (!own) {
      own = new Set();
      waiters.bySession.set(waiter.sessionId, own);
    }
    own.add(waiter);
    if (waiter.holdsSession) {
      waiters.holders.add(waiter);
      this.#holderWaitsStarted += 1;
    }
  }

  #remove(waiter: Waiter): void {
    const waiters = this.#inputs.get(waiter.input);
    if (!waiters) return;
    waiters.anySession.delete(waiter);
    waiters.holders.delete(waiter);
    if (waiter.sessionId !== null) {
      const own = waiters.bySession.get(waiter.sessionId);
      own?.delete(waiter);
      if (own?.size === 0) waiters.bySession.delete(waiter.sessionId);
    }
  }
}

function first<T>(set: Iterable<T>): T | undefined {
  for (const item of set) return item;
  return undefined;
}
