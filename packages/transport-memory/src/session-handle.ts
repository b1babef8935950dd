import type {
  BatchSettlement,
  DeadLetterOptions,
  ParkedMessage,
  ReceivedMessage,
  ReceiveOptions,
  SessionHandle,
  SessionState,
  SettleEffects,
} from '@nimbus/core';
import { NimBusError, NimBusErrorCode } from '@nimbus/core';
import { deadLetterOutcome } from '@nimbus/core/transport-spi';
import type { SessionEntry } from './entries.js';
import type { MemoryCore } from './memory-core.js';
import { anotherSessionWaits, tryReceive } from './receive.js';
import { assertLease, releaseLease, renewLease } from './session-lease.js';
import { abandon, setState, settle, settleMany } from './settle.js';

/** A lease on one session; every operation checks that the lease is still held. */
export class MemorySessionHandle implements SessionHandle {
  readonly input: string;
  readonly sessionId: string;
  #lockedUntil: number;

  constructor(
    private readonly core: MemoryCore,
    private readonly entry: SessionEntry,
    private readonly token: string,
  ) {
    this.input = entry.input;
    this.sessionId = entry.sessionId;
    this.#lockedUntil = entry.lockedUntil;
  }

  get lockedUntil(): Date {
    return new Date(this.#lockedUntil);
  }

  async receive({ max, waitMs, signal }: ReceiveOptions): Promise<ReceivedMessage[]> {
    if (!Number.isInteger(max) || max < 1)
      throw new NimBusError(
        NimBusErrorCode.InvalidArgument,
        `receive: max must be an integer ≥ 1, got ${max}`,
      );
    const deadline = this.core.now() + Math.max(0, waitMs);
    for (;;) {
      if (signal?.aborted) return [];
      const received = tryReceive(this.core, this.entry, this.token, max);
      if (received.length > 0) {
        this.core.waiters.taken(this.input, this.sessionId);
        return received;
      }
      const now = this.core.now();
      if (now >= deadline) return [];
      // This line is empty and another session waits with no accept of this process running to take it: give
      // this one up now rather than after the idle timeout (wake-ups for that work may have gone to others).
      if (this.core.waiters.acceptsRunning(this.input) === 0 && anotherSessionWaits(this.core, this.entry))
        return [];
      const wakeAt = Math.min(deadline, this.core.nextWakeTime(), this.entry.lockedUntil);
      const woken = await this.core.waiters.wait(this.input, this.sessionId, wakeAt - now, {
        holdsSession: true,
        ...(signal ? { signal } : {}),
      });
      // Another session has work and no accept loop is free: give this idle one up for it.
      if (woken === 'yield') return [];
    }
  }

  async getState(): Promise<SessionState | null> {
    assertLease(this.core, this.entry, this.token);
    return this.entry.state === null ? null : structuredClone(this.entry.state);
  }

  async setState(state: SessionState | null): Promise<void> {
    setState(this.core, this.entry, this.token, state);
  }

  async complete(message: ReceivedMessage, effects?: SettleEffects): Promise<void> {
    settle(this.core, this.entry, this.token, message, effects, null);
  }

  async settleMany(settlements: readonly BatchSettlement[]): Promise<void> {
    settleMany(this.core, this.entry, this.token, settlements);
  }

  async abandon(message: ReceivedMessage): Promise<void> {
    abandon(this.core, this.entry, this.token, message);
  }

  async deadLetter(message: ReceivedMessage, options: DeadLetterOptions): Promise<void> {
    settle(this.core, this.entry, this.token, message, options.effects, deadLetterOutcome(options));
  }

  async readParked(fromSequence: number, max: number): Promise<ParkedMessage[]> {
    assertLease(this.core, this.entry, this.token);
    return [...this.entry.parked.values()]
      .filter((p) => p.sequence >= fromSequence)
      .sort((a, b) => a.sequence - b.sequence)
      .slice(0, max);
  }

  async renewLock(): Promise<Date> {
    this.#lockedUntil = renewLease(this.core, this.entry, this.token);
    return this.lockedUntil;
  }

  async release(): Promise<void> {
    releaseLease(this.core, this.entry, this.token);
  }
}
