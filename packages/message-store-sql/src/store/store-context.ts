import type { Clock, Logger } from '@nimbus/core';
import type { MessageStateChangeNotifier, RetentionOptions } from '@nimbus/message-store';
import type { SqlDialect } from '../dialect/sql-dialect.js';

/** What every sub-store shares: the dialect, the clock it stamps times from, and the notifier (used by the notification link of the decorator chain). */
export interface StoreContext {
  readonly dialect: SqlDialect;
  readonly clock: Clock;
  readonly notifier: MessageStateChangeNotifier;
  readonly logger: Logger;
  readonly retention: RetentionOptions;
}

export function nowDate(context: Pick<StoreContext, 'clock'>): Date {
  return new Date(context.clock.now());
}
