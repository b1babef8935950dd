import type { SessionHandle, Transport } from '../transport/transport.js';
import type { ResolvedProcessorOptions } from './session-processor-options.js';

interface Waiting {
  readonly signal: AbortSignal;
  readonly resolve: (session: SessionHandle | null) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * The accept loops of one SessionProcessor ask here for their next session. When the transport has
 * `acceptSessions` and at least two loops are free at once, one call leases a session for each of them (one
 * statement on PostgreSQL, one transaction on SQLite) instead of one call per loop; the sessions go to the loops
 * in the order they asked, longest ready session first. Loops that free up while such a call is in flight join
 * the next one. A lone free loop, or a transport without `acceptSessions`, accepts as before.
 */
export class SessionAccepter {
  #queue: Waiting[] = [];
  #scheduled = false;
  #batchInFlight = false;

  private readonly transport: Transport;
  private readonly input: string;
  private readonly waitMs: number;

  constructor(options: Pick<ResolvedProcessorOptions, 'transport' | 'input' | 'acceptWaitMs'>) {
    this.transport = options.transport;
    this.input = options.input;
    this.waitMs = options.acceptWaitMs;
  }

  /** The next session for one accept loop, or null when none came within the accept wait. */
  accept(signal: AbortSignal): Promise<SessionHandle | null> {
    if (this.transport.acceptSessions === undefined)
      return this.transport.acceptSession(this.input, { waitMs: this.waitMs, signal });
    return new Promise((resolve, reject) => {
      this.#queue.push({ signal, resolve, reject });
      this.#schedule();
    });
  }

  // Loops that ask in the same turn of the event loop (all of them at start, several after a settlement group
  // answered) go together: the flush runs on the next turn of the event loop.
  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      this.#flush();
    });
  }

  #flush(): void {
    if (this.#batchInFlight || this.#queue.length === 0) return;
    // Only loops of the same start share a call (a restarted processor has a new stop signal).
    const signal = this.#queue[0]!.signal;
    const group = this.#queue.filter((waiting) => waiting.signal === signal);
    this.#queue = this.#queue.filter((waiting) => waiting.signal !== signal);
    if (signal.aborted) {
      for (const waiting of group) waiting.resolve(null);
    } else if (group.length === 1) {
      const [alone] = group;
      this.transport
        .acceptSession(this.input, { waitMs: this.waitMs, signal })
        .then(alone!.resolve, alone!.reject);
    } else {
      this.#batchInFlight = true;
      void this.#acceptFor(group, signal).finally(() => {
        this.#batchInFlight = false;
        this.#flush();
      });
    }
    if (this.#queue.length > 0) this.#schedule();
  }

  async #acceptFor(group: readonly Waiting[], signal: AbortSignal): Promise<void> {
    let sessions: SessionHandle[];
    try {
      sessions = await this.transport.acceptSessions!({
        input: this.input,
        max: group.length,
        waitMs: this.waitMs,
        signal,
      });
    } catch (error) {
      for (const waiting of group) waiting.reject(error);
      return;
    }
    // The transport returns at most `max`; loops left without a session look again at once.
    for (const [index, waiting] of group.entries()) waiting.resolve(sessions[index] ?? null);
  }
}
