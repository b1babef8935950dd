import type { Logger } from '@nimbus/core';
import type { MessageStateChangeNotifier, StateChange } from '../contracts/state-change-notifier.js';

/**
 * The one way a committed write is told to the notifier: each distinct change once, in order. The write
 * already succeeded, so a failing notifier is logged (live views catch up on their next refresh), never
 * turned into a failed write.
 */
export async function notifyAfterCommit(
  notifier: MessageStateChangeNotifier,
  changes: Iterable<StateChange>,
  logger: Logger,
): Promise<void> {
  const seen = new Set<string>();
  for (const change of changes) {
    const key = JSON.stringify(change);
    if (seen.has(key)) continue;
    seen.add(key);
    try {
      await notifier.notify(change);
    } catch (error) {
      logger.warn(
        { change, error: error instanceof Error ? error.message : String(error) },
        'message store: state-change notifier failed after a committed write',
      );
    }
  }
}
