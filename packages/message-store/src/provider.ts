// `@nimbus/message-store/provider`: what a store provider needs and an application does not — the composed
// store, the stale-write guard, the decorator chain, row normalisation, paging and the shared aggregations that
// let every provider answer alike. The contracts and entities are in the main entry.
export { assertValidStatusWriteKey, requireNonEmptyString } from './argument-checks.js';
export { isSelfOriginating, resolveOriginatingId } from './blocked-event-rules.js';
export { ComposedMessageStore, type MessageStoreSlices } from './composed-message-store.js';
export { compositeEventId } from './composite-id.js';
export { changedId } from './contracts/state-change-notifier.js';
export { decorateStore, type StoreCall, type StoreDecorator } from './decorators/decorate-store.js';
export { notifyAfterCommit } from './decorators/notify-after-commit.js';
export { notifyStateChanges } from './decorators/notify-state-changes.js';
export { traceStoreCalls, translateStoreErrors } from './decorators/trace-store-calls.js';
export { formatEndpointErrorList } from './endpoint-error-list.js';
export {
  compositeIdsWithStatus,
  ERROR_LIST_STATUSES,
  endpointStateCount,
  endpointStatePage,
  type RowStatus,
  SESSION_BLOCKING_STATUSES,
  sessionStateCount,
  toBlockedMessageEvent,
} from './endpoint-summaries.js';
export { HEARTBEAT_SETTINGS_ID, MAX_HEARTBEATS_PER_ENDPOINT } from './entities/heartbeat.js';
export {
  aggregateFailureGroups,
  FAILURE_GROUP_STATUSES,
  type FailureFields,
  type FailureGroupRow,
  sortFailureGroups,
  splitFailureSignature,
} from './failure-groups.js';
export { heartbeatOverviewItem, heartbeatRollup, newestHeartbeatsFirst } from './heartbeat-rollup.js';
export {
  endpointMetricsOf,
  endpointTimeSeriesOf,
  eventTypeTimeSeriesOf,
  failedMessageInsightsOf,
  latencyMetricsOf,
  timeSeriesOf,
} from './metrics-aggregation.js';
export {
  type StatusWriteKey,
  toMessageAudit,
  toMessageEntity,
  toUnresolvedEvent,
  withEventJsonStripped,
  withoutEventJson,
} from './normalize.js';
export {
  decodeOffsetToken,
  nextOffsetToken,
  type OffsetPage,
  type OffsetPageRequest,
  offsetPageOf,
  offsetPageRequest,
  sliceOffsetPage,
} from './offset-paging.js';
export { PaginationLimits } from './pagination.js';
export { redeliveredStatusWrites, writeLeavingOutRedelivered } from './redelivered-status-writes.js';
export {
  assertValidStoreEndpointId,
  isReservedStoreEndpointId,
  RESERVED_STORE_ENDPOINT_IDS,
} from './reserved-endpoint-ids.js';
export { unresolvedRetentionMs } from './retention.js';
export {
  asciiLower,
  matchesAnyText,
  matchesPrefix,
  matchesTrackedMessageFilter,
  type TrackedMessageFields,
} from './search-matching.js';
export {
  CONTROL_REQUEST_TYPES,
  decideStatusWrite,
  type GuardedRow,
  type IncomingStatusWrite,
  type StatusWriteDecision,
} from './stale-write-guard.js';
export {
  newEndpointSubscription,
  subscriptionsWantingFailure,
  withSubscriptionUpdate,
} from './subscription-rules.js';
export { type BucketLength, bucketKey, bucketKeysBetween, normaliseBucketLength } from './time-buckets.js';
