import { ManualClock } from '@nimbus/core';
import { createMemoryTransport } from '@nimbus/transport-memory';
import type { TestBusTransport } from '../test-bus.js';

/**
 * What a transport's test gives the end-to-end suites, once per case: a fresh, empty transport (the suite
 * applies its topology), the manual clock it reads or `clock: null` for real time, and how long to wait for
 * messages on their way (`waitMs`, 0 in process).
 */
export interface EndToEndFixture extends TestBusTransport {
  /** Runs after the case, once the suite has closed the transport: removes what the case left behind. */
  cleanup(): Promise<void>;
}

export type EndToEndTransportFactory = () => Promise<EndToEndFixture>;

/** Why a case that jumps time is skipped on a transport without a manual clock. */
export const NEEDS_MANUAL_CLOCK =
  'needs a manual clock: the transport runs on real time and the case jumps further ahead than a test may wait';

/** The in-memory transport on a fresh manual clock (starting at `start`): the reference run of every suite. */
export function memoryTransportFixture(start: number | Date = Date.UTC(2026, 0, 1)): EndToEndFixture {
  const clock = new ManualClock(start);
  return { transport: createMemoryTransport({ clock }), clock, cleanup: async () => undefined };
}
