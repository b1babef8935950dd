export type {
  EndpointMetadataStore,
  HeartbeatOptIn,
  HeartbeatWrite,
} from './contracts/endpoint-metadata-store.js';
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
export type { ServiceHealthStore, ServiceProbeClaim } from './contracts/service-health-store.js';
export {
  type MessageStateChangeNotifier,
  noopStateChangeNotifier,
  type StateChange,
  type StateChangeKind,
  type StateChangeListener,
} from './contracts/state-change-notifier.js';
export {
  resolveSingleProvider,
  type StorageProviderCapabilities,
  type StorageProviderRegistration,
} from './contracts/storage-provider.js';
export type {
  EndpointSubscriptionWrite,
  SubscriptionFailureQuery,
  SubscriptionMailRef,
  SubscriptionRef,
  SubscriptionStore,
} from './contracts/subscription-store.js';
export type {
  AuditSearchRequest,
  AuditWrite,
  EndpointEventRef,
  EndpointEventsRef,
  EndpointPageRequest,
  EventIdOnEndpoint,
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
  StatusLookup,
  StatusWrite,
  TrackedEventKey,
  TrackingBatch,
  TrackingBatchResult,
} from './contracts/tracking-requests.js';
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
  type Heartbeat,
  type HeartbeatGap,
  type HeartbeatOverviewItem,
  type HeartbeatSettings,
  type HeartbeatSettingsUpdate,
  type HeartbeatUptimeDay,
  heartbeatGapId,
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
export type { RetryState } from './entities/retry-state.js';
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
  isInvalidStoreArgument,
  MessageNotFoundError,
  MessageStoreError,
  MessageStoreErrorCode,
  ReservedEndpointIdError,
  StorageProviderRegistrationError,
  StorageProviderTransientError,
} from './errors.js';
export { rowFailureSignature } from './failure-groups.js';
export {
  FAILURE_SIGNATURE_MAX_LENGTH,
  type FailureSignature,
  failureSignature,
  normaliseErrorMessage,
} from './failure-signature.js';
export {
  createMemoryMessageStore,
  MEMORY_PROVIDER_NAME,
  type MemoryMessageStoreOptions,
  memoryStorageProvider,
} from './memory/create-memory-message-store.js';
export { InProcessStateChangeNotifier } from './notifier.js';
export { withStateChangeNotifications } from './notifying-store.js';
export type {
  ColocatedProjection,
  ProjectionPlan,
  ProjectionSqlExecutor,
} from './projection/colocated.js';
export { determineEndpoint, type ResolvedEndpoint } from './projection/endpoint.js';
export { handoffProcessingTimeMs } from './projection/handoff-timing.js';
export {
  isHeartbeatTraffic,
  mayNeedStoreReads,
  type PlainTracking,
  plainStatusWrite,
  plainTracking,
} from './projection/plain-projection.js';
export {
  hasStatus,
  isHistoryOnly,
  resultingStatus,
  retryStateOf,
  UnmappedMessageTypeError,
} from './projection/status-mapping.js';
export { historyRecord, type ResolverInput, stateRow } from './projection/tracking-records.js';
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
} from './retention.js';
