import type { MessageTrackingStore } from './message-tracking-store.js';

/*
 * Named slices of MessageTrackingStore, so each provider module can say which part it implements.
 * Together they cover the whole contract; the documentation of each method stays on the interface.
 */

/** The seven status upserts and the conditional completion of a Pending row. */
export type TrackingStatusWrites = Pick<
  MessageTrackingStore,
  | 'uploadPendingMessage'
  | 'uploadDeferredMessage'
  | 'uploadFailedMessage'
  | 'uploadDeadletteredMessage'
  | 'uploadUnsupportedMessage'
  | 'uploadSkippedMessage'
  | 'uploadCompletedMessage'
  | 'tryCompletePendingMessage'
>;

/** Soft deletes that take rows out of the live views. */
export type TrackingRowLifecycle = Pick<
  MessageTrackingStore,
  'removeMessage' | 'purgeMessages' | 'archiveFailedEvent'
>;

/** Single-row and small-set reads of live resolver rows. */
export type TrackingEventLookups = Pick<
  MessageTrackingStore,
  | 'getPendingEvent'
  | 'getFailedEvent'
  | 'getDeferredEvent'
  | 'getDeadletteredEvent'
  | 'getUnsupportedEvent'
  | 'getEvent'
  | 'getEventById'
  | 'getEventsByIds'
  | 'getCompletedEventsOnEndpoint'
  | 'getPendingHandoffByExternalJobId'
  | 'getNextPendingHandoffEvent'
>;

/** The filtered, paged search over live resolver rows. */
export type TrackingEventSearch = Pick<MessageTrackingStore, 'getEventsByFilter'>;

/** Operator views over one endpoint's live rows: counts, session state, paging, blocked sessions. */
export type TrackingEndpointViews = Pick<
  MessageTrackingStore,
  | 'downloadEndpointStateCount'
  | 'downloadEndpointSessionStateCount'
  | 'downloadEndpointSessionStateCountBatch'
  | 'downloadEndpointStatePaging'
  | 'getBlockedEventsOnSession'
  | 'getPendingEventsOnSession'
  | 'getInvalidEventsOnSession'
  | 'getEndpointErrorList'
>;

/** The per-message history and its search. */
export type TrackingMessageHistory = Pick<
  MessageTrackingStore,
  | 'storeMessage'
  | 'getMessage'
  | 'getEventHistory'
  | 'getLatestEventRequestMessage'
  | 'getFailedMessage'
  | 'getDeadletteredMessage'
  | 'removeStoredMessage'
  | 'searchMessages'
>;

/** The audit trail, its search, resubmit counts and the per-event "reported" markers. */
export type TrackingAuditsAndReports = Pick<
  MessageTrackingStore,
  | 'storeMessageAudit'
  | 'getMessageAudits'
  | 'searchAudits'
  | 'getResubmitCounts'
  | 'setEventReport'
  | 'getEventReports'
>;

/** Deleting what has outlived its retention. */
export type TrackingRetention = Pick<MessageTrackingStore, 'sweepExpired'>;
