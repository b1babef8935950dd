import type { EventPayload } from '@nimbus/core';
import { createSubscriber } from '@nimbus/sdk';
import type { TestBus } from '../../test-bus.js';
import { OrderPlaced } from '../platform.js';

/** What every case of the engine suite gets: a bus over the case's transport, and a skip by capability. */
export interface EngineEndToEnd {
  /** A bus over this case's transport with the suite's platform, its topology applied (one per case). */
  open(): Promise<TestBus>;
  /** Skips the running case, saying why, unless the transport reads a manual clock. */
  requireManualClock(context: { skip(note?: string): void }): void;
}

type Order = EventPayload<typeof OrderPlaced>;
export type OrderHandler = (event: Order) => void | Promise<void>;

/** Billing consuming OrderPlaced with `configure(handled)`; by default it records every order it handles. */
export async function billingBus(
  e2e: EngineEndToEnd,
  configure: (handled: unknown[]) => OrderHandler = (handled) => (e) => void handled.push(e),
) {
  const bus = await e2e.open();
  const handled: unknown[] = [];
  const subscriber = createSubscriber().on(OrderPlaced, configure(handled));
  bus.endpoint('Billing', { subscriber });
  return { bus, handled, subscriber, sales: bus.publisher('Sales') };
}
