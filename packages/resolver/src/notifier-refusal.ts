import { NimBusError, NimBusErrorCode } from '@nimbus/core';

/**
 * The store's notification link is the one emitter of state changes (after each commit), so a component
 * handed a notifier would tell the live views twice, or before the write it reports. Refused, naming where
 * the notifier goes instead.
 */
export function refuseNotifier(args: object, factory: string): void {
  if ((args as { notifier?: unknown }).notifier === undefined) return;
  throw new NimBusError(
    NimBusErrorCode.InvalidOption,
    `${factory}: 'notifier' is not an option; give the notifier to the store instead (createSqlMessageStore({ notifier }), createMemoryMessageStore({ notifier }) or withStateChangeNotifications(store, notifier)): the store tells it after each committed write.`,
  );
}
