export { assertValidStatusWriteKey, requireNonEmptyString } from './argument-checks.js';
export { isSelfOriginating, resolveOriginatingId } from './blocked-event-rules.js';
export { ComposedMessageStore, type MessageStoreSlices } from './composed-message-store.js';
export { compositeEventId } from './composite-id.js';
export type { EndpointMetadataStore } from './contracts/endpoint-metadata-store.js';
export type { HeartbeatHistoryStore } from './contracts/heartbeat-history-store.js';
export type {
  MessageTrackingStore,
  TrackingAuditsAndReports,
  TrackingEndpointViews,
  TrackingEventLookups,
  TrackingEventSearch,
  TrackingFailureGroups,
  TrackingMessageHistory,
  TrackingRetention,
  TrackingRowLifecycle,
  TrackingStatusWrites,
} from './contracts/message-tracking-store.js';
export type { MetricsStore, TimeSeriesRequest } from './contracts/metrics-store.js';
export type { NimBusMessageStore, OpenMessageStore } from './contracts/nimbus-message-store.js';
export type { ServiceHealthStore } from './contracts/service-health-store.js';
export {
  type MessageStateChangeNotifier,
  noopStateChangeNotifier,
} from './contracts/state-change-notifier.js';
export {
  resolveSingleProvider,
  type StorageProviderCapabilities,
  type StorageProviderRegistration,
} from './contracts/storage-provider.js';
export type {
  EndpointSubscriptionWrite,
  SubscriptionFailureQuery,
  SubscriptionStore,
} from './contracts/subscription-store.js';
export type {
  AuditSearchRequest,
  AuditWrite,
  EndpointEventRef,
  EndpointEventsRef,
  EndpointPageRequest,
  EventIdsOnEndpoint,
  EventReportWrite,
  EventSearchRequest,
  HandoffJobRef,
  MessageRef,
  MessageSearchRequest,
  NextHandoffRequest,
  PendingCompletion,
  PurgeScope,
  SearchPageRequest,
  SessionPageRequest,
  SessionRef,
  SessionsRef,
  StatusWrite,
  TrackedEventKey,
  TrackingBatch,
  TrackingBatchResult,
} from './contracts/tracking-requests.js';
export { decorateStore, type StoreCall, type StoreDecorator } from './decorators/decorate-store.js';
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
export type {
  EndpointMetadata,
  EndpointMetadataWrite,
  TechnicalContact,
} from './entities/endpoint-metadata.js';
export {
  allUnresolvedEventIds,
  type BlockedMessageEvent,
  type BlockedMessageEventPage,
  type EndpointState,
  type EndpointStateCount,
  type SessionStateCount,
} from './entities/endpoint-state.js';
export type { FailureGroup, FailureGroupRequest } from './entities/failure-group.js';
export type {
  AuditFilter,
  AuditSearchItem,
  AuditSearchResult,
  EventFilter,
  MessageFilter,
  MessageSearchResult,
  SearchResponse,
  TrackedMessageFilter,
} from './entities/filters.js';
export {
  DEFAULT_HEARTBEAT_SETTINGS,
  DEFAULT_MISSED_BEATS_UNTIL_OFF,
  HEARTBEAT_SETTINGS_ID,
  type Heartbeat,
  type HeartbeatGap,
  type HeartbeatOverviewItem,
  type HeartbeatSettings,
  type HeartbeatSettingsUpdate,
  type HeartbeatUptimeDay,
  heartbeatGapId,
  MAX_HEARTBEATS_PER_ENDPOINT,
  type ServiceHealth,
  uptimeDayId,
} from './entities/heartbeat.js';
export type { EventReport, MessageAuditEntity, MessageAuditWrite } from './entities/message-audit.js';
export type { MessageEntity, MessageEntityWrite } from './entities/message-entity.js';
export type {
  EndpointEventTypeCount,
  EndpointLatencyAggregate,
  EndpointLatencyMetricsResult,
  EndpointMetricsResult,
  EndpointTimeSeriesBucket,
  EndpointTimeSeriesResult,
  EventTypeSeriesBucket,
  EventTypeSeriesEntry,
  EventTypeTimeSeriesResult,
  FailedMessageInfo,
  LatencyAggregate,
  TimeSeriesBucket,
  TimeSeriesResult,
} from './entities/metrics.js';
export type { EndpointSubscription, SubscriptionAlertSettings } from './entities/subscription.js';
export type { UnresolvedEvent, UnresolvedEventWrite } from './entities/unresolved-event.js';
export {
  ALL_RESOLUTION_STATUSES,
  EndpointRole,
  FINISHED_STATUSES,
  HANDOFF_SUB_STATUS,
  HeartbeatStatus,
  isResolutionStatus,
  MessageAuditType,
  ResolutionStatus,
  TERMINAL_STATUSES,
  UNRESOLVED_STATUSES,
} from './enums.js';
export {
  EndpointNotFoundError,
  InvalidStoreArgumentError,
  InvalidStoreOptionError,
  MessageNotFoundError,
  MessageStoreError,
  MessageStoreErrorCode,
  ReservedEndpointIdError,
  StorageProviderRegistrationError,
  StorageProviderTransientError,
} from './errors.js';
export {
  aggregateFailureGroups,
  FAILURE_GROUP_STATUSES,
  type FailureFields,
  type FailureGroupRow,
  rowFailureSignature,
  sortFailureGroups,
  splitFailureSignature,
} from './failure-groups.js';
export {
  FAILURE_SIGNATURE_MAX_LENGTH,
  type FailureSignature,
  failureSignature,
  normaliseErrorMessage,
} from './failure-signature.js';
export { heartbeatOverviewItem, heartbeatRollup, newestHeartbeatsFirst } from './heartbeat-rollup.js';
export {
  createMemoryMessageStore,
  MEMORY_PROVIDER_NAME,
  type MemoryMessageStoreOptions,
  memoryStorageProvider,
} from './memory/create-memory-message-store.js';
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
  changedId,
  InProcessStateChangeNotifier,
  type StateChange,
  type StateChangeListener,
} from './notifier.js';
export { withStateChangeNotifications } from './notifying-store.js';
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
export {
  assertValidStoreEndpointId,
  isReservedStoreEndpointId,
  RESERVED_STORE_ENDPOINT_IDS,
} from './reserved-endpoint-ids.js';
export {
  DEFAULT_RETENTION,
  FIXED_RETENTION_MS,
  MAX_UNRESOLVED_RETENTION_DAYS,
  parseRetentionOptions,
  type RetentionOptionSources,
  type RetentionOptions,
  type RetentionSweepResult,
  UNLIMITED_RETENTION,
  UNRESOLVED_RETENTION_ENV,
  unresolvedRetentionMs,
} from './retention.js';
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
