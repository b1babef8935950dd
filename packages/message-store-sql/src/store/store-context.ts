import type { Clock, Logger } from '@nimbus/core';
import type { MessageStateChangeNotifier, RetentionOptions } from '@nimbus/message-store';
import type { SqlDialect } from '../dialect/sql-dialect.js';

/** What every sub-store shares: the dialect, the clock it stamps times from, and the post-commit notifier. */
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

/**
 * Tells the notifier after a commit. The write already succeeded, so a failing notifier is logged
 * (live views catch up on their next refresh) rather than turned into a failed write.
 */
export async function notifyAfterCommit(
  context: StoreContext,
  kind: 'endpoint' | 'heartbeat' | 'service',
  id: string,
): Promise<void> {
  try {
    if (kind === 'endpoint') await context.notifier.notifyEndpointStateChanged(id);
    else if (kind === 'heartbeat') await context.notifier.notifyHeartbeatChanged(id);
    else await context.notifier.notifyServiceHealthChanged(id);
  } catch (error) {
    context.logger.warn(
      { kind, id, error: error instanceof Error ? error.message : String(error) },
      'message store: state-change notifier failed after a committed write',
    );
  }
}
