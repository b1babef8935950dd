import { TransportError, TransportErrorCode, uuidv7 } from '@nimbus/core';
import type { Delivery } from '@nimbus/core/transport-spi';
import type { HeldLease } from './held-lease.js';
import { plainPlans } from './publish-plan.js';
import {
  lastState,
  type PlannedSettlement,
  settleInTransaction,
  settleManyInTransaction,
  stateText,
} from './sql-settle-rows.js';

// Which path a settlement takes: the dialect's one statement (`settle.inOneStatement`, PostgreSQL) when it has
// one and nothing touches parked rows or publishes scheduled or co-located copies; otherwise the transaction
// every dialect shares (sql-settle-rows.ts).

/** Settles one message of the lease. */
export async function settleOne(lease: HeldLease, settlement: PlannedSettlement): Promise<void> {
  const { message, plans, effects, deadLetter } = settlement;
  if (!fitsOneStatement(lease, settlement)) {
    await settleInTransaction(lease, settlement);
    return;
  }
  const { outcome, inputs } = await runOneStatement(
    lease,
    [{ message, deadLetter }],
    stateText(effects?.state),
    plans.flatMap((plan) => plan.deliveries),
  );
  // With one message only the lease check can trip the guard.
  if (outcome === 'guard') throw lease.lockLost();
  if (outcome === 'notHeld') await lease.throwSettleFailure(lease.core.db, message);
  lease.core.wakeLocal(inputs);
}

/** Settles several messages of the lease together: all or none. */
export async function settleMany(lease: HeldLease, planned: readonly PlannedSettlement[]): Promise<void> {
  if (planned.every((item) => fitsOneStatement(lease, item))) await settleManyInOneStatement(lease, planned);
  else await settleManyInTransaction(lease, planned);
}

function fitsOneStatement(lease: HeldLease, settlement: PlannedSettlement): boolean {
  return (
    lease.core.dialect.settle.inOneStatement !== undefined &&
    !touchesParked(settlement) &&
    plainPlans(settlement.plans)
  );
}

function touchesParked({ effects }: PlannedSettlement): boolean {
  return (
    (effects?.park?.length ?? 0) + (effects?.unpark?.length ?? 0) + (effects?.deadLetterParked?.length ?? 0) >
    0
  );
}

/** Settles these held messages, with `state` and `deliveries`, in the dialect's one statement. */
function runOneStatement(
  lease: HeldLease,
  settled: readonly Pick<PlannedSettlement, 'message' | 'deadLetter'>[],
  state: string | null | undefined,
  deliveries: readonly Delivery[],
) {
  const { core } = lease;
  return core.dialect.settle.inOneStatement!(core, {
    lease,
    messages: settled.map(({ message, deadLetter }) => ({
      sequence: message.sequence,
      deliveryCount: message.deliveryCount,
      deadLetter: deadLetter ? { id: uuidv7(), ...deadLetter } : null,
    })),
    state,
    deliveries,
  });
}

/** Settlements without parked effects or scheduled copies, in one statement. */
async function settleManyInOneStatement(
  lease: HeldLease,
  planned: readonly PlannedSettlement[],
): Promise<void> {
  const { core } = lease;
  const deliveries = planned.flatMap((item) => item.plans.flatMap((plan) => plan.deliveries));
  const { outcome, inputs } = await runOneStatement(lease, planned, lastState(planned), deliveries);
  if (outcome !== 'settled') {
    await lease.assertLease(core.db);
    throw new TransportError(
      TransportErrorCode.MessageLockLost,
      `settleMany: not every message of session '${lease.sessionId}' at '${lease.input}' is held by this lease (already settled, purged or redelivered); nothing was settled`,
    );
  }
  core.wakeLocal(inputs);
}
