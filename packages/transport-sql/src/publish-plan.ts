import type { Delivery } from '@nimbus/core/transport-spi';
import type { ProjectionPlan } from '@nimbus/message-store';

/** Planned publish: routed deliveries, either for now or for a due time (scheduled). */
export interface PublishPlan {
  readonly deliveries: Delivery[];
  readonly dueAt: number | null;
  /** Resolver copies a co-located store records in the same transaction instead (never for scheduled plans). */
  readonly projected?: readonly ProjectionPlan[];
}

/** Whether any plan carries copies for the co-located projection (they need a transaction). */
export function hasProjected(plans: readonly PublishPlan[]): boolean {
  return plans.some((plan) => (plan.projected?.length ?? 0) > 0);
}

/** Plans a dialect's one-statement writers can take: all due now, nothing for a co-located store. */
export function plainPlans(plans: readonly PublishPlan[]): boolean {
  return plans.every((plan) => plan.dueAt === null) && !hasProjected(plans);
}
