import { consoleLogger, type Logger } from '@nimbus/core';
import type { HeartbeatOptIn, HeartbeatWrite } from '../contracts/endpoint-metadata-store.js';
import type { ServiceProbeClaim } from '../contracts/service-health-store.js';
import type { MessageStateChangeNotifier } from '../contracts/state-change-notifier.js';
import type {
  PendingCompletion,
  PurgeScope,
  StatusWrite,
  TrackedEventKey,
  TrackingBatch,
  TrackingBatchResult,
} from '../contracts/tracking-requests.js';
import type { ServiceHealth } from '../entities/heartbeat.js';
import type { StoreDecorator } from './decorate-store.js';

type Target = 'endpoint' | 'heartbeat' | 'serviceHealth';
interface Change {
  readonly target: Target;
  readonly ids: readonly string[];
}

const endpoints = (ids: readonly string[]): Change => ({ target: 'endpoint', ids: [...new Set(ids)] });
const writtenEndpoints = (writes: readonly StatusWrite[], written: readonly boolean[]): Change =>
  endpoints(writes.filter((_, i) => written[i] === true).map((w) => w.key.endpointId));

/**
 * Which persisted change each state-changing call makes, read from its named parameters and result.
 * A boolean `false` means nothing changed. A batch notifies once per endpoint it changed.
 */
const CHANGES: Readonly<Record<string, (params: readonly unknown[], result: unknown) => Change>> = {
  writeStatus: ([w], r) => endpoints(r === true ? [(w as StatusWrite).key.endpointId] : []),
  writeStatuses: ([ws], r) => writtenEndpoints(ws as StatusWrite[], r as boolean[]),
  writeBatch: ([b], r) =>
    writtenEndpoints((b as TrackingBatch).statuses ?? [], (r as TrackingBatchResult).statusesWritten),
  tryCompletePending: ([c], r) => endpoints(r === true ? [(c as PendingCompletion).key.endpointId] : []),
  removeMessage: ([k], r) => endpoints(r === true ? [(k as TrackedEventKey).endpointId] : []),
  archiveFailedEvent: ([k]) => endpoints([(k as TrackedEventKey).endpointId]),
  purgeMessages: ([s], r) => endpoints(r === true ? [(s as PurgeScope).endpointId] : []),
  setHeartbeat: ([h], r) => ({
    target: 'heartbeat',
    ids: r === true ? [(h as HeartbeatWrite).endpointId] : [],
  }),
  enableHeartbeatOnEndpoint: ([o]) => ({ target: 'heartbeat', ids: [(o as HeartbeatOptIn).endpointId] }),
  sweepTimedOutHeartbeats: (_p, r) => ({ target: 'heartbeat', ids: r as string[] }),
  setServiceHealth: ([h], r) => ({
    target: 'serviceHealth',
    ids: r === true ? [(h as ServiceHealth).serviceId] : [],
  }),
  tryClaimServiceProbe: ([c], r) => ({
    target: 'serviceHealth',
    ids: r === true ? [(c as ServiceProbeClaim).serviceId] : [],
  }),
  sweepTimedOutServiceProbes: (_p, r) => ({ target: 'serviceHealth', ids: r as string[] }),
};

/**
 * The notification link: after a state-changing call resolves, tells the notifier about what it
 * persisted. Refused or failed writes notify nothing; a failing notifier is logged, never turned into a
 * failed write (the write is already committed; live views catch up on their next refresh).
 */
export function notifyStateChanges(
  notifier: MessageStateChangeNotifier,
  options: { readonly logger?: Logger } = {},
): StoreDecorator {
  const logger = options.logger ?? consoleLogger;
  const notify = async (target: Target, id: string) => {
    try {
      if (target === 'endpoint') await notifier.notifyEndpointStateChanged(id);
      else if (target === 'heartbeat') await notifier.notifyHeartbeatChanged(id);
      else await notifier.notifyServiceHealthChanged(id);
    } catch (error) {
      logger.warn(
        { target, id, error: error instanceof Error ? error.message : String(error) },
        'message store: state-change notifier failed after a committed write',
      );
    }
  };
  return async (call, proceed) => {
    const result = await proceed();
    const changeOf = CHANGES[call.method];
    if (changeOf === undefined || result === false) return result;
    const change = changeOf(call.params, result);
    for (const id of change.ids) await notify(change.target, id);
    return result;
  };
}
