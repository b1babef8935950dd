import { LifecycleRunner, RunnerLifecycle, type StopContext } from '@nimbus/core';
import type { EndpointMetadataStore } from './contracts/endpoint-metadata-store.js';
import type { HeartbeatHistoryStore } from './contracts/heartbeat-history-store.js';
import type {
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
import type { MetricsStore } from './contracts/metrics-store.js';
import type { OpenMessageStore } from './contracts/nimbus-message-store.js';
import type { ServiceHealthStore } from './contracts/service-health-store.js';
import type { SubscriptionStore } from './contracts/subscription-store.js';
import { MessageStoreError, MessageStoreErrorCode } from './errors.js';

/** One implementation per contract slice; a provider builds each as a class or object. */
export interface MessageStoreSlices {
  readonly statusWrites: TrackingStatusWrites;
  readonly lifecycle: TrackingRowLifecycle;
  readonly lookups: TrackingEventLookups;
  readonly search: TrackingEventSearch;
  readonly failureGroups: TrackingFailureGroups;
  readonly views: TrackingEndpointViews;
  readonly history: TrackingMessageHistory;
  readonly audits: TrackingAuditsAndReports;
  readonly retention: TrackingRetention;
  readonly subscriptions: SubscriptionStore;
  readonly metadata: EndpointMetadataStore;
  readonly metrics: MetricsStore;
  readonly serviceHealth: ServiceHealthStore;
  readonly heartbeatHistory: HeartbeatHistoryStore;
}

/**
 * The aggregate store: every contract method delegates, by name, to the slice that implements it (no
 * method copying or spreading, so each call site resolves to one place). Providers hand this out,
 * usually behind their decorator chain (`decorateStore`). It is opened by its provider (`running`); after
 * `stop()` (or `close()`) every contract call fails with `MessageStoreError` `Closed`.
 */
export class ComposedMessageStore extends RunnerLifecycle implements OpenMessageStore {
  // Not `#private`: the decorator chain is a Proxy, and getters read through it see the Proxy as `this`.
  protected readonly lifecycle: LifecycleRunner;

  constructor(
    readonly providerName: string,
    private readonly openSlices: MessageStoreSlices,
    release: (context: StopContext) => Promise<void> = async () => {},
  ) {
    super();
    this.lifecycle = new LifecycleRunner(
      { stop: release },
      {
        name: `the ${providerName} message store`,
        closedError: (message) => new MessageStoreError(MessageStoreErrorCode.Closed, message),
      },
    );
  }

  /** What every contract call goes through: the slices while the store runs, the `Closed` error after. */
  protected get slices(): MessageStoreSlices {
    this.lifecycle.assertUsable();
    return this.openSlices;
  }

  writeStatus(...args: Parameters<TrackingStatusWrites['writeStatus']>) {
    return this.slices.statusWrites.writeStatus(...args);
  }
  writeStatuses(...args: Parameters<TrackingStatusWrites['writeStatuses']>) {
    return this.slices.statusWrites.writeStatuses(...args);
  }
  writeBatch(...args: Parameters<TrackingStatusWrites['writeBatch']>) {
    return this.slices.statusWrites.writeBatch(...args);
  }
  tryCompletePending(...args: Parameters<TrackingStatusWrites['tryCompletePending']>) {
    return this.slices.statusWrites.tryCompletePending(...args);
  }
  removeMessage(...args: Parameters<TrackingRowLifecycle['removeMessage']>) {
    return this.slices.lifecycle.removeMessage(...args);
  }
  purgeMessages(...args: Parameters<TrackingRowLifecycle['purgeMessages']>) {
    return this.slices.lifecycle.purgeMessages(...args);
  }
  archiveFailedEvent(...args: Parameters<TrackingRowLifecycle['archiveFailedEvent']>) {
    return this.slices.lifecycle.archiveFailedEvent(...args);
  }
  getEventInStatus(...args: Parameters<TrackingEventLookups['getEventInStatus']>) {
    return this.slices.lookups.getEventInStatus(...args);
  }
  getEvent(...args: Parameters<TrackingEventLookups['getEvent']>) {
    return this.slices.lookups.getEvent(...args);
  }
  getEventById(...args: Parameters<TrackingEventLookups['getEventById']>) {
    return this.slices.lookups.getEventById(...args);
  }
  getEventsByIds(...args: Parameters<TrackingEventLookups['getEventsByIds']>) {
    return this.slices.lookups.getEventsByIds(...args);
  }
  getCompletedEventsOnEndpoint(...args: Parameters<TrackingEventLookups['getCompletedEventsOnEndpoint']>) {
    return this.slices.lookups.getCompletedEventsOnEndpoint(...args);
  }
  getPendingHandoffByExternalJobId(
    ...args: Parameters<TrackingEventLookups['getPendingHandoffByExternalJobId']>
  ) {
    return this.slices.lookups.getPendingHandoffByExternalJobId(...args);
  }
  getNextPendingHandoffEvent(...args: Parameters<TrackingEventLookups['getNextPendingHandoffEvent']>) {
    return this.slices.lookups.getNextPendingHandoffEvent(...args);
  }
  getEventsByFilter(...args: Parameters<TrackingEventSearch['getEventsByFilter']>) {
    return this.slices.search.getEventsByFilter(...args);
  }
  getFailureGroups(...args: Parameters<TrackingFailureGroups['getFailureGroups']>) {
    return this.slices.failureGroups.getFailureGroups(...args);
  }
  downloadEndpointStateCount(...args: Parameters<TrackingEndpointViews['downloadEndpointStateCount']>) {
    return this.slices.views.downloadEndpointStateCount(...args);
  }
  downloadEndpointSessionStateCount(
    ...args: Parameters<TrackingEndpointViews['downloadEndpointSessionStateCount']>
  ) {
    return this.slices.views.downloadEndpointSessionStateCount(...args);
  }
  downloadEndpointSessionStateCountBatch(
    ...args: Parameters<TrackingEndpointViews['downloadEndpointSessionStateCountBatch']>
  ) {
    return this.slices.views.downloadEndpointSessionStateCountBatch(...args);
  }
  downloadEndpointStatePaging(...args: Parameters<TrackingEndpointViews['downloadEndpointStatePaging']>) {
    return this.slices.views.downloadEndpointStatePaging(...args);
  }
  getBlockedEventsOnSession(...args: Parameters<TrackingEndpointViews['getBlockedEventsOnSession']>) {
    return this.slices.views.getBlockedEventsOnSession(...args);
  }
  getPendingEventsOnSession(...args: Parameters<TrackingEndpointViews['getPendingEventsOnSession']>) {
    return this.slices.views.getPendingEventsOnSession(...args);
  }
  getInvalidEventsOnSession(...args: Parameters<TrackingEndpointViews['getInvalidEventsOnSession']>) {
    return this.slices.views.getInvalidEventsOnSession(...args);
  }
  getEndpointErrorList(...args: Parameters<TrackingEndpointViews['getEndpointErrorList']>) {
    return this.slices.views.getEndpointErrorList(...args);
  }
  storeMessage(...args: Parameters<TrackingMessageHistory['storeMessage']>) {
    return this.slices.history.storeMessage(...args);
  }
  storeMessages(...args: Parameters<TrackingMessageHistory['storeMessages']>) {
    return this.slices.history.storeMessages(...args);
  }
  getMessage(...args: Parameters<TrackingMessageHistory['getMessage']>) {
    return this.slices.history.getMessage(...args);
  }
  getEventHistory(...args: Parameters<TrackingMessageHistory['getEventHistory']>) {
    return this.slices.history.getEventHistory(...args);
  }
  getLatestEventRequestMessage(...args: Parameters<TrackingMessageHistory['getLatestEventRequestMessage']>) {
    return this.slices.history.getLatestEventRequestMessage(...args);
  }
  getFailedMessage(...args: Parameters<TrackingMessageHistory['getFailedMessage']>) {
    return this.slices.history.getFailedMessage(...args);
  }
  getDeadletteredMessage(...args: Parameters<TrackingMessageHistory['getDeadletteredMessage']>) {
    return this.slices.history.getDeadletteredMessage(...args);
  }
  removeStoredMessage(...args: Parameters<TrackingMessageHistory['removeStoredMessage']>) {
    return this.slices.history.removeStoredMessage(...args);
  }
  searchMessages(...args: Parameters<TrackingMessageHistory['searchMessages']>) {
    return this.slices.history.searchMessages(...args);
  }
  storeMessageAudit(...args: Parameters<TrackingAuditsAndReports['storeMessageAudit']>) {
    return this.slices.audits.storeMessageAudit(...args);
  }
  getMessageAudits(...args: Parameters<TrackingAuditsAndReports['getMessageAudits']>) {
    return this.slices.audits.getMessageAudits(...args);
  }
  searchAudits(...args: Parameters<TrackingAuditsAndReports['searchAudits']>) {
    return this.slices.audits.searchAudits(...args);
  }
  getResubmitCounts(...args: Parameters<TrackingAuditsAndReports['getResubmitCounts']>) {
    return this.slices.audits.getResubmitCounts(...args);
  }
  setEventReport(...args: Parameters<TrackingAuditsAndReports['setEventReport']>) {
    return this.slices.audits.setEventReport(...args);
  }
  getEventReports(...args: Parameters<TrackingAuditsAndReports['getEventReports']>) {
    return this.slices.audits.getEventReports(...args);
  }
  sweepExpired(...args: Parameters<TrackingRetention['sweepExpired']>) {
    return this.slices.retention.sweepExpired(...args);
  }
  subscribeToEndpointNotification(...args: Parameters<SubscriptionStore['subscribeToEndpointNotification']>) {
    return this.slices.subscriptions.subscribeToEndpointNotification(...args);
  }
  getSubscriptionsOnEndpoint(...args: Parameters<SubscriptionStore['getSubscriptionsOnEndpoint']>) {
    return this.slices.subscriptions.getSubscriptionsOnEndpoint(...args);
  }
  getSubscriptionsOnEndpointWithEventtype(
    ...args: Parameters<SubscriptionStore['getSubscriptionsOnEndpointWithEventtype']>
  ) {
    return this.slices.subscriptions.getSubscriptionsOnEndpointWithEventtype(...args);
  }
  updateSubscription(...args: Parameters<SubscriptionStore['updateSubscription']>) {
    return this.slices.subscriptions.updateSubscription(...args);
  }
  unsubscribeById(...args: Parameters<SubscriptionStore['unsubscribeById']>) {
    return this.slices.subscriptions.unsubscribeById(...args);
  }
  unsubscribeByMail(...args: Parameters<SubscriptionStore['unsubscribeByMail']>) {
    return this.slices.subscriptions.unsubscribeByMail(...args);
  }
  deleteSubscription(...args: Parameters<SubscriptionStore['deleteSubscription']>) {
    return this.slices.subscriptions.deleteSubscription(...args);
  }
  getEndpointMetadata(...args: Parameters<EndpointMetadataStore['getEndpointMetadata']>) {
    return this.slices.metadata.getEndpointMetadata(...args);
  }
  getMetadatas(...args: Parameters<EndpointMetadataStore['getMetadatas']>) {
    return this.slices.metadata.getMetadatas(...args);
  }
  setEndpointMetadata(...args: Parameters<EndpointMetadataStore['setEndpointMetadata']>) {
    return this.slices.metadata.setEndpointMetadata(...args);
  }
  getMetadatasWithEnabledHeartbeat(
    ...args: Parameters<EndpointMetadataStore['getMetadatasWithEnabledHeartbeat']>
  ) {
    return this.slices.metadata.getMetadatasWithEnabledHeartbeat(...args);
  }
  enableHeartbeatOnEndpoint(...args: Parameters<EndpointMetadataStore['enableHeartbeatOnEndpoint']>) {
    return this.slices.metadata.enableHeartbeatOnEndpoint(...args);
  }
  setHeartbeat(...args: Parameters<EndpointMetadataStore['setHeartbeat']>) {
    return this.slices.metadata.setHeartbeat(...args);
  }
  sweepTimedOutHeartbeats(...args: Parameters<EndpointMetadataStore['sweepTimedOutHeartbeats']>) {
    return this.slices.metadata.sweepTimedOutHeartbeats(...args);
  }
  getHeartbeatSettings(...args: Parameters<EndpointMetadataStore['getHeartbeatSettings']>) {
    return this.slices.metadata.getHeartbeatSettings(...args);
  }
  setHeartbeatSettings(...args: Parameters<EndpointMetadataStore['setHeartbeatSettings']>) {
    return this.slices.metadata.setHeartbeatSettings(...args);
  }
  tryClaimHeartbeatSend(...args: Parameters<EndpointMetadataStore['tryClaimHeartbeatSend']>) {
    return this.slices.metadata.tryClaimHeartbeatSend(...args);
  }
  getHeartbeatOverview(...args: Parameters<EndpointMetadataStore['getHeartbeatOverview']>) {
    return this.slices.metadata.getHeartbeatOverview(...args);
  }
  getEndpointMetrics(...args: Parameters<MetricsStore['getEndpointMetrics']>) {
    return this.slices.metrics.getEndpointMetrics(...args);
  }
  getEndpointLatencyMetrics(...args: Parameters<MetricsStore['getEndpointLatencyMetrics']>) {
    return this.slices.metrics.getEndpointLatencyMetrics(...args);
  }
  getFailedMessageInsights(...args: Parameters<MetricsStore['getFailedMessageInsights']>) {
    return this.slices.metrics.getFailedMessageInsights(...args);
  }
  getTimeSeriesMetrics(...args: Parameters<MetricsStore['getTimeSeriesMetrics']>) {
    return this.slices.metrics.getTimeSeriesMetrics(...args);
  }
  getEndpointTimeSeriesMetrics(...args: Parameters<MetricsStore['getEndpointTimeSeriesMetrics']>) {
    return this.slices.metrics.getEndpointTimeSeriesMetrics(...args);
  }
  getEventTypeTimeSeriesMetrics(...args: Parameters<MetricsStore['getEventTypeTimeSeriesMetrics']>) {
    return this.slices.metrics.getEventTypeTimeSeriesMetrics(...args);
  }
  getServiceHealth(...args: Parameters<ServiceHealthStore['getServiceHealth']>) {
    return this.slices.serviceHealth.getServiceHealth(...args);
  }
  tryClaimServiceProbe(...args: Parameters<ServiceHealthStore['tryClaimServiceProbe']>) {
    return this.slices.serviceHealth.tryClaimServiceProbe(...args);
  }
  setServiceHealth(...args: Parameters<ServiceHealthStore['setServiceHealth']>) {
    return this.slices.serviceHealth.setServiceHealth(...args);
  }
  sweepTimedOutServiceProbes(...args: Parameters<ServiceHealthStore['sweepTimedOutServiceProbes']>) {
    return this.slices.serviceHealth.sweepTimedOutServiceProbes(...args);
  }
  getHeartbeatUptimeDays(...args: Parameters<HeartbeatHistoryStore['getHeartbeatUptimeDays']>) {
    return this.slices.heartbeatHistory.getHeartbeatUptimeDays(...args);
  }
  upsertHeartbeatUptimeDays(...args: Parameters<HeartbeatHistoryStore['upsertHeartbeatUptimeDays']>) {
    return this.slices.heartbeatHistory.upsertHeartbeatUptimeDays(...args);
  }
  getHeartbeatGaps(...args: Parameters<HeartbeatHistoryStore['getHeartbeatGaps']>) {
    return this.slices.heartbeatHistory.getHeartbeatGaps(...args);
  }
  upsertHeartbeatGaps(...args: Parameters<HeartbeatHistoryStore['upsertHeartbeatGaps']>) {
    return this.slices.heartbeatHistory.upsertHeartbeatGaps(...args);
  }
  tryClaimHeartbeatHistoryFold(...args: Parameters<HeartbeatHistoryStore['tryClaimHeartbeatHistoryFold']>) {
    return this.slices.heartbeatHistory.tryClaimHeartbeatHistoryFold(...args);
  }
  pruneHeartbeatHistory(...args: Parameters<HeartbeatHistoryStore['pruneHeartbeatHistory']>) {
    return this.slices.heartbeatHistory.pruneHeartbeatHistory(...args);
  }
  get prunesHeartbeatHistoryAutomatically() {
    return this.slices.heartbeatHistory.prunesHeartbeatHistoryAutomatically;
  }
}
