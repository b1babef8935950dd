import { consoleLogger, type Logger } from '@nimbus/core';
import type { NimBusMessageStore } from './contracts/nimbus-message-store.js';
import type { MessageStateChangeNotifier } from './contracts/state-change-notifier.js';

type Target = 'endpoint' | 'heartbeat' | 'serviceHealth';

/** Store methods that change visible state, and where to find the id they concern. */
const NOTIFYING_METHODS: Readonly<
  Record<string, { target: Target; idOf: (args: unknown[], result: unknown) => string[] }>
> = {
  uploadPendingMessage: { target: 'endpoint', idOf: (a) => [a[2] as string] },
  uploadDeferredMessage: { target: 'endpoint', idOf: (a) => [a[2] as string] },
  uploadFailedMessage: { target: 'endpoint', idOf: (a) => [a[2] as string] },
  uploadDeadletteredMessage: { target: 'endpoint', idOf: (a) => [a[2] as string] },
  uploadUnsupportedMessage: { target: 'endpoint', idOf: (a) => [a[2] as string] },
  uploadSkippedMessage: { target: 'endpoint', idOf: (a) => [a[2] as string] },
  uploadCompletedMessage: { target: 'endpoint', idOf: (a) => [a[2] as string] },
  tryCompletePendingMessage: { target: 'endpoint', idOf: (a) => [a[2] as string] },
  removeMessage: { target: 'endpoint', idOf: (a) => [a[2] as string] },
  archiveFailedEvent: { target: 'endpoint', idOf: (a) => [a[2] as string] },
  purgeMessages: { target: 'endpoint', idOf: (a) => [a[0] as string] },
  setHeartbeat: { target: 'heartbeat', idOf: (a) => [a[1] as string] },
  enableHeartbeatOnEndpoint: { target: 'heartbeat', idOf: (a) => [a[0] as string] },
  sweepTimedOutHeartbeats: { target: 'heartbeat', idOf: (_a, r) => r as string[] },
  setServiceHealth: { target: 'serviceHealth', idOf: (a) => [(a[0] as { serviceId: string }).serviceId] },
  tryClaimServiceProbe: { target: 'serviceHealth', idOf: (a) => [a[0] as string] },
  sweepTimedOutServiceProbes: { target: 'serviceHealth', idOf: (_a, r) => r as string[] },
};

/**
 * Wraps any provider so the notifier hears about every persisted change: after a method resolves
 * (and, for boolean methods, only when it returned true). Refused or failed writes notify nothing.
 */
export function withStateChangeNotifications<T extends NimBusMessageStore>(
  store: T,
  notifier: MessageStateChangeNotifier,
  options: { logger?: Logger } = {},
): T {
  const logger = options.logger ?? consoleLogger;
  const notify = async (target: Target, id: string) => {
    try {
      if (target === 'endpoint') await notifier.notifyEndpointStateChanged(id);
      else if (target === 'heartbeat') await notifier.notifyHeartbeatChanged(id);
      else await notifier.notifyServiceHealthChanged(id);
    } catch (error) {
      logger.error({ target, id, error }, 'State-change notification failed; the write itself was persisted');
    }
  };
  return new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      const rule = typeof property === 'string' ? NOTIFYING_METHODS[property] : undefined;
      if (rule === undefined || typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        const result: unknown = await value.apply(target, args);
        if (result === false) return result;
        for (const id of rule.idOf(args, result)) await notify(rule.target, id);
        return result;
      };
    },
  });
}
