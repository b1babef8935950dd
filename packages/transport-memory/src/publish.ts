import { type PublishRequest, type TransportMessage, uuidv7 } from '@nimbus/core';
import {
  assertPublishBatchSize,
  assertPublishSource,
  assertTransportMessage,
  type Delivery,
  routeMessage,
} from '@nimbus/core/transport-spi';
import type { MemoryCore } from './memory-core.js';

/** A routed publish request: its copies, either for now or for a due time (scheduled). */
export interface PublishPlan {
  readonly deliveries: Delivery[];
  readonly dueAt: number | null;
}

/** The same budget for every publish call (and for the publishes a settlement carries). */
export function assertBatchSize(core: MemoryCore, requests: readonly PublishRequest[]): void {
  assertPublishBatchSize(requests, core.options.maxBatchBytes);
}

/** Routes and validates without changing anything, so callers can apply atomically afterwards. */
export function planPublish(core: MemoryCore, requests: readonly PublishRequest[]): PublishPlan[] {
  return requests.map((request) => {
    assertPublishSource(request.source);
    const deliveries = request.messages.flatMap((message) => {
      assertTransportMessage(message);
      return routeMessage(core.topology, request.source, message);
    });
    for (const delivery of deliveries) core.assertInput(delivery.input);
    const dueAt = request.enqueueAt ? request.enqueueAt.getTime() : null;
    return { deliveries, dueAt: dueAt !== null && dueAt > core.now() ? dueAt : null };
  });
}

export function applyPublish(core: MemoryCore, plans: readonly PublishPlan[]): void {
  for (const { deliveries, dueAt } of plans) {
    if (dueAt === null) core.enqueue(deliveries);
    else addScheduled(core, uuidv7(core.now()), '', dueAt, deliveries);
  }
}

/** Schedules one message for `at`; returns the handle's id. */
export function schedule(core: MemoryCore, source: string, message: TransportMessage, at: Date): string {
  const [planned] = planPublish(core, [{ source, messages: [message] }]);
  const id = uuidv7(core.now());
  addScheduled(core, id, source, at.getTime(), planned!.deliveries);
  core.promoteDue();
  core.waiters.notifyAll();
  return id;
}

export function cancelScheduled(core: MemoryCore, id: string, source: string): void {
  core.promoteDue();
  core.schedule.cancel(id, source);
}

function addScheduled(
  core: MemoryCore,
  id: string,
  source: string,
  dueAt: number,
  deliveries: readonly Delivery[],
): void {
  core.schedule.add({ id, source, dueAt, order: core.nextArrival(), deliveries });
}
