import type { ReceivedMessage, TransportError } from '@nimbus/core';
import type { LeaseFence } from './dialect/dialect.js';
import type { SqlExecutor } from './sql/database.js';
import type { SqlCore } from './sql-core.js';

/** What the receive and row-settlement paths need of the session lease that holds a line. */
export interface HeldLease extends LeaseFence {
  readonly core: SqlCore;
  lockLost(): TransportError;
  assertLease(executor: SqlExecutor): Promise<void>;
  /** After a settle matched no row: throws lock lost when the lease is gone, else message lock lost. */
  throwSettleFailure(executor: SqlExecutor, message: ReceivedMessage): Promise<never>;
}
