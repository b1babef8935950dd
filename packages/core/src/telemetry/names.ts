/**
 * Instrumentation scopes (tracer and meter names). Hosts add these to their OpenTelemetry setup; the libraries
 * only ever talk to `@opentelemetry/api`.
 */
export const TelemetryScope = {
  Publisher: 'nimbus.publisher',
  Consumer: 'nimbus.consumer',
  Outbox: 'nimbus.outbox',
  Inbox: 'nimbus.inbox',
  DeferredProcessor: 'nimbus.deferred',
  Resolver: 'nimbus.resolver',
  Store: 'nimbus.store',
  CircuitBreaker: 'nimbus.circuit_breaker',
} as const;

export type TelemetryScope = (typeof TelemetryScope)[keyof typeof TelemetryScope];

/** Span names. Messaging spans follow the OpenTelemetry convention `{operation} {destination}`. */
export const SpanName = {
  publish: (to: string) => `publish ${to}`,
  receive: (input: string) => `receive ${input}`,
  process: (to: string) => `process ${to}`,
  settle: (operation: SettleOperation) => `settle ${operation}`,
  /** The dispatch of one outbox row is a publish to its destination, linked to the original publish. */
  outboxDispatch: (to: string) => `publish ${to}`,
  OutboxEnqueue: 'nimbus.outbox.enqueue',
  DeferredPark: 'nimbus.deferred.park',
  DeferredReplay: 'nimbus.deferred.replay',
  ResolverWrite: 'nimbus.resolver.write',
  storeCall: (operation: string) => `nimbus.store ${operation}`,
} as const;

export type SettleOperation = 'complete' | 'abandon' | 'deadLetter';

/** Span and metric attribute names. */
export const TelemetryAttribute = {
  MessagingSystem: 'messaging.system',
  OperationType: 'messaging.operation.type',
  DestinationName: 'messaging.destination.name',
  MessageId: 'messaging.message.id',
  ConversationId: 'messaging.message.conversation_id',
  EventType: 'nimbus.event_type',
  MessageType: 'nimbus.message_type',
  SessionKey: 'nimbus.session.key',
  Endpoint: 'nimbus.endpoint',
  HasParentTrace: 'nimbus.has_parent_trace',
  Outcome: 'nimbus.outcome',
  SettleOperation: 'nimbus.settle.operation',
  OutboxBatchSize: 'nimbus.outbox.batch_size',
  DeferredBatchSize: 'nimbus.deferred.batch_size',
  StoreOperation: 'nimbus.store.operation',
  StoreProvider: 'nimbus.store.provider',
  CircuitState: 'nimbus.circuit_breaker.state',
  ErrorType: 'error.type',
  MessageState: 'nimbus.message.state',
} as const;

/** `messaging.operation.type` values. */
export const MessagingOperation = {
  Publish: 'publish',
  Receive: 'receive',
  Process: 'process',
  Settle: 'settle',
} as const;

/** Metric names; durations are histograms in seconds, gauges are observed at collection, the rest count. */
export const MetricName = {
  MessagePublished: 'nimbus.message.published',
  MessagePublishFailed: 'nimbus.message.publish.failed',
  MessagePublishDuration: 'nimbus.message.publish.duration',
  MessageReceived: 'nimbus.message.received',
  MessageProcessed: 'nimbus.message.processed',
  MessageProcessDuration: 'nimbus.message.process.duration',
  MessageQueueWait: 'nimbus.message.queue_wait',
  MessageSettled: 'nimbus.message.settled',
  InboxDuplicateDetected: 'nimbus.inbox.duplicate_detected',
  InboxOperationFailed: 'nimbus.inbox.operation.failed',
  InboxPurged: 'nimbus.inbox.purged',
  OutboxEnqueued: 'nimbus.outbox.enqueued',
  OutboxDispatched: 'nimbus.outbox.dispatched',
  OutboxDispatchDuration: 'nimbus.outbox.dispatch.duration',
  OutboxPurged: 'nimbus.outbox.purged',
  DeferredParked: 'nimbus.deferred.parked',
  DeferredReplayed: 'nimbus.deferred.replayed',
  DeferredReplayDuration: 'nimbus.deferred.replay.duration',
  ResolverWrites: 'nimbus.resolver.writes',
  ResolverWriteDuration: 'nimbus.resolver.write.duration',
  StoreOperationDuration: 'nimbus.store.operation.duration',
  StoreOperationFailed: 'nimbus.store.operation.failed',
  CircuitBreakerTransitions: 'nimbus.circuit_breaker.transitions_total',
  /** A retry of a failed message was handled (a `RetryRequest` came back to the endpoint). */
  MessageRetried: 'nimbus.message.retried',
  MessageDeadLettered: 'nimbus.message.dead_lettered',
  /**
   * A session's lease was lost while this process held it (lapsed on the monotonic clock, within the safety
   * margin, or a renewal refused): its messages in hand were dropped unrun.
   */
  SessionLeaseLost: 'nimbus.session.lease_lost',
  /** The transport refused a settlement because the session's lease had lapsed or was taken over; nothing applied. */
  SettlementRefused: 'nimbus.message.settlement_refused',
  /** Gauge: messages at an endpoint's input by `nimbus.message.state` (active, scheduled, parked, dead_lettered). */
  EndpointMessages: 'nimbus.endpoint.messages',
  /** Gauge: sessions of an endpoint blocked by a failed, dead-lettered or unsupported event. */
  EndpointBlockedSessions: 'nimbus.endpoint.sessions.blocked',
  /** Gauge, seconds: age of the oldest message waiting for the Resolver (0 when none waits). */
  ResolverLag: 'nimbus.resolver.lag',
} as const;

export type MetricName = (typeof MetricName)[keyof typeof MetricName];

/** `nimbus.outcome` values. */
export const Outcome = {
  Completed: 'completed',
  Failed: 'failed',
  Dispatched: 'dispatched',
  Skipped: 'skipped',
} as const;
