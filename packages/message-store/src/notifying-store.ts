import type { Logger } from '@nimbus/core';
import type { MessageStateChangeNotifier } from './contracts/state-change-notifier.js';
import { decorateStore } from './decorators/decorate-store.js';
import { notifyStateChanges } from './decorators/notify-state-changes.js';

/**
 * Any provider with a notification link added: the notifier hears about every persisted change after
 * the call resolves (for boolean calls only when it returned true; a batch once per endpoint changed).
 */
export function withStateChangeNotifications<T extends object>(
  store: T,
  notifier: MessageStateChangeNotifier,
  options: { logger?: Logger } = {},
): T {
  return decorateStore(store, [notifyStateChanges(notifier, options)]);
}
