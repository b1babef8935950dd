import type { Logger } from '@nimbus/core';
import type { MessageStateChangeNotifier } from '@nimbus/message-store';

type Notification = keyof MessageStateChangeNotifier;

/**
 * Tells the live views about a persisted write. A notifier failure never undoes or blocks the write
 * it reports, so it is logged and the message is still completed.
 */
export async function notifySafely(
  notifier: MessageStateChangeNotifier,
  logger: Logger,
  kind: Notification,
  id: string,
): Promise<void> {
  if (!id) return;
  try {
    await notifier[kind](id);
  } catch (error) {
    logger.warn(
      { error, notification: kind, id },
      'State-change notifier failed; the write itself succeeded',
    );
  }
}
