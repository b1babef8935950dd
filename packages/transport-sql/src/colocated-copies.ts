import { RESOLVER_INPUT } from '@nimbus/core';
import type { Delivery } from '@nimbus/core/transport-spi';
import type { ColocatedProjection, ProjectionPlan } from '@nimbus/message-store';
import type { SqlExecutor } from './sql/database.js';

// A co-located message store (same database) records the plain copies addressed to the Resolver inside the
// transport's own transaction instead of receiving them (see ColocatedProjection in @nimbus/message-store).

/** Work keys to wake after a commit, plus the endpoints whose store rows the transaction changed. */
export class CommittedWork extends Set<string> {
  constructor(
    keys: Iterable<string>,
    readonly changedEndpoints: readonly string[],
  ) {
    super(keys);
  }
}

/** Splits routed deliveries into those still to deliver and the Resolver copies the projection records. */
export function takeProjected(
  projection: ColocatedProjection | null,
  deliveries: readonly Delivery[],
): { deliveries: Delivery[]; projected: ProjectionPlan[] } {
  if (projection === null) return { deliveries: [...deliveries], projected: [] };
  const kept: Delivery[] = [];
  const projected: ProjectionPlan[] = [];
  for (const delivery of deliveries) {
    const plan = delivery.input === RESOLVER_INPUT ? projection.plan(delivery.message) : null;
    if (plan === null) kept.push(delivery);
    else projected.push(plan);
  }
  return { deliveries: kept, projected };
}

/** Writes the projected copies in `tx`; the work keys come back with the endpoints to notify after commit. */
export async function writeProjected(
  projection: ColocatedProjection | null,
  tx: SqlExecutor,
  woken: Set<string>,
  projected: readonly ProjectionPlan[],
): Promise<Set<string>> {
  if (projection === null || projected.length === 0) return woken;
  return new CommittedWork(woken, await projection.write(tx, projected));
}
