import { consoleLogger, type Logger } from '@nimbus/core';
import type { HeartbeatOptIn, HeartbeatWrite } from '../contracts/endpoint-metadata-store.js';
import type { ServiceProbeClaim } from '../contracts/service-health-store.js';
import {
  changedId,
  type MessageStateChangeNotifier,
  type StateChange,
} from '../contracts/state-change-notifier.js';
import type {
  AuditWrite,
  PendingCompletion,
  PurgeScope,
  StatusWrite,
  TrackedEventKey,
  TrackingBatch,
  TrackingBatchResult,
} from '../contracts/tracking-requests.js';
import type { ServiceHealth } from '../entities/heartbeat.js';
import { MessageAuditType } from '../enums.js';
import type { StoreDecorator } from './decorate-store.js';
import { notifyAfterCommit } from './notify-after-commit.js';

const endpoints = (ids: readonly string[]): StateChange[] =>
  ids.map((endpointId) => ({ kind: 'endpoint', endpointId }));
const heartbeats = (ids: readonly string[]): StateChange[] =>
  ids.map((endpointId) => ({ kind: 'heartbeat', endpointId }));
const services = (ids: readonly string[]): StateChange[] =>
  ids.map((serviceId) => ({ kind: 'serviceHealth', serviceId }));
const writtenEndpoints = (writes: readonly StatusWrite[], written: readonly boolean[]): StateChange[] =>
  endpoints(writes.filter((_, i) => written[i] === true).map((w) => w.key.endpointId));

/**
 * Which persisted change each state-changing call makes, read from its named parameters and result.
 * A boolean `false` means nothing changed. A batch notifies once per endpoint it changed. Audits notify
 * only for an operator's Comment (other operators looking at the event see the note appear); every
 * other audit row changes nothing a live view shows.
 */
const CHANGES: Readonly<Record<string, (params: readonly unknown[], result: unknown) => StateChange[]>> = {
  writeStatus: ([w], r) => endpoints(r === true ? [(w as StatusWrite).key.endpointId] : []),
  writeStatuses: ([ws], r) => writtenEndpoints(ws as StatusWrite[], r as boolean[]),
  writeBatch: ([b], r) =>
    writtenEndpoints((b as TrackingBatch).statuses ?? [], (r as TrackingBatchResult).statusesWritten),
  tryCompletePending: ([c], r) => endpoints(r === true ? [(c as PendingCompletion).key.endpointId] : []),
  removeMessage: ([k], r) => endpoints(r === true ? [(k as TrackedEventKey).endpointId] : []),
  archiveFailedEvent: ([k]) => endpoints([(k as TrackedEventKey).endpointId]),
  purgeMessages: ([s], r) => endpoints(r === true ? [(s as PurgeScope).endpointId] : []),
  storeMessageAudit: ([a]) => {
    const write = a as AuditWrite;
    return write.audit.auditType === MessageAuditType.Comment && write.endpointId
      ? endpoints([write.endpointId])
      : [];
  },
  setHeartbeat: ([h], r) => heartbeats(r === true ? [(h as HeartbeatWrite).endpointId] : []),
  enableHeartbeatOnEndpoint: ([o]) => heartbeats([(o as HeartbeatOptIn).endpointId]),
  sweepTimedOutHeartbeats: (_p, r) => heartbeats(r as string[]),
  setServiceHealth: ([h], r) => services(r === true ? [(h as ServiceHealth).serviceId] : []),
  tryClaimServiceProbe: ([c], r) => services(r === true ? [(c as ServiceProbeClaim).serviceId] : []),
  sweepTimedOutServiceProbes: (_p, r) => services(r as string[]),
};

/**
 * The notification link, the one owner of notifications: after a state-changing call resolves (the write
 * committed), tells the notifier what it persisted (`notifyAfterCommit`). Refused or failed writes notify
 * nothing.
 */
export function notifyStateChanges(
  notifier: MessageStateChangeNotifier,
  options: { readonly logger?: Logger } = {},
): StoreDecorator {
  const logger = options.logger ?? consoleLogger;
  return async (call, proceed) => {
    const result = await proceed();
    const changeOf = CHANGES[call.method];
    if (changeOf === undefined || result === false) return result;
    const changes = changeOf(call.params, result).filter((change) => changedId(change) !== '');
    await notifyAfterCommit(notifier, changes, logger);
    return result;
  };
}
