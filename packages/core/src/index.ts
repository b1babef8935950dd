export * from './circuit-breaker/index.js';
export type { Clock } from './clock.js';
export { ManualClock, systemClock } from './clock.js';
export {
  EventHandlerNotFoundError,
  HandlerFailedError,
  HandoffFailedError,
  UnauthorizedRequestError,
  UnsupportedMessageTypeError,
} from './engine/errors.js';
export {
  assertLeaseHeld,
  currentLeaseFence,
  type EventContextHandler,
  HandlerCancelledError,
  type HandlerCancelReason,
  type MessageHandlingContext,
  type PendingHandoff,
} from './engine/handler-context.js';
export { type EngineInbox, InboxUnavailableError } from './engine/inbox-step.js';
export {
  type EngineHandlingOptions,
  GENERIC_DEAD_LETTER_REASON,
  MessageEngine,
  type MessageEngineOptions,
} from './engine/message-engine.js';
export type { HandlerOutcomeRecorder } from './engine/outcome-recorder.js';
export { CONTROL_REQUEST_REFUSED, DUPLICATE_DETECTED, originatingOf } from './engine/responses.js';
export { createEnvelope, type EnvelopeInit, type MessageEnvelope } from './envelope/envelope.js';
export { Header, type HeaderName, type Headers } from './envelope/headers.js';
export { InvalidMessageError } from './envelope/invalid-message-error.js';
export {
  EMPTY_CONTENT,
  type ErrorContent,
  type EventContent,
  errorContentFrom,
  type MessageContent,
} from './envelope/message-content.js';
export { isMessageType, MessageType, REQUEST_TYPES, RESPONSE_TYPES } from './envelope/message-type.js';
export { jsonDepth, MAX_PAYLOAD_DEPTH } from './envelope/payload-depth.js';
export { decodeContent, decodeEnvelope, encodeContent, encodeEnvelope } from './envelope/wire.js';
export { causeChain, errorMessage, errorTypeName, fullErrorText } from './errors/cause-chain.js';
export { NimBusErrorCode, RETRYABLE_BY_DEFAULT } from './errors/error-codes.js';
export { MessageRejectedError, PermanentFailureError, TransientError } from './errors/handling-errors.js';
export {
  isNimBusError,
  isRetryableError,
  NimBusError,
  type NimBusErrorOptions,
} from './errors/nimbus-error.js';
export {
  type FailureClassifier,
  type FailureDisposition,
  retryEverything,
} from './failures/failure-disposition.js';
export {
  PermanentFailureClassifier,
  type PermanentFailureOptions,
} from './failures/permanent-failure-classifier.js';
export { uuidv7 } from './ids.js';
export {
  type LoopLifecycleOptions,
  type LoopSignals,
  loopLifecycle,
  type StoppableChild,
  stopChild,
  withLifecycle,
} from './lifecycle/lifecycle-parts.js';
export {
  type ProbeReadinessOptions,
  probeReadiness,
  type Readiness,
  type ReadinessProbe,
  type ReadinessReport,
  readinessAnswer,
  readinessOf,
  readinessReport,
  type ServiceReadinessSources,
  serviceReadiness,
} from './lifecycle/readiness.js';
export {
  isServiceLifecycle,
  LifecycleRunner,
  type LifecycleRunnerOptions,
  type LifecycleState,
  type LifecycleSteps,
  RunnerLifecycle,
  type ServiceLifecycle,
  type StopContext,
  type StopOptions,
  whenAborted,
} from './lifecycle/service-lifecycle.js';
export { childLogger, consoleLogger, type Logger, silentLogger } from './logger.js';
export type { LifecycleContext, LifecycleObserver } from './pipeline/lifecycle.js';
export { loggingBehaviour } from './pipeline/logging-behaviour.js';
export { type PipelineBehaviour, type PipelineContext, runPipeline } from './pipeline/pipeline.js';
export { validationBehaviour } from './pipeline/validation-behaviour.js';
export { ensureCommandConsumers, validateCommandConsumers } from './platform/command-consumers.js';
export { defineEndpoint, type Endpoint, type EndpointOptions } from './platform/endpoint.js';
export {
  EventValidationError,
  type FieldError,
  PlatformDefinitionError,
  SessionKeyError,
} from './platform/errors.js';
export {
  defineCommand,
  defineEvent,
  definePlatformEvent,
  type EventKind,
  type EventPayload,
  type EventType,
  type EventTypeOptions,
  type SessionKeySource,
} from './platform/event-type.js';
export { definePlatform, Platform } from './platform/platform.js';
export {
  Addresses,
  HEARTBEAT_EVENT_TYPE_ID,
  RESERVED_ENDPOINT_IDS,
  RESERVED_EVENT_TYPE_IDS,
} from './platform/reserved.js';
export { resolveSessionId } from './platform/session-key.js';
export { tryValidate, type ValidationResult, validateEvent } from './platform/validation.js';
export { LeaseFence } from './processing/lease-fence.js';
export {
  SessionProcessor,
  type SessionProcessorState,
  type SessionProcessorStats,
} from './processing/session-processor.js';
export {
  type BatchHandlingOutcome,
  type ProcessorErrorContext,
  type ProcessorErrorSource,
  type SessionMessageHandler,
  type SessionProcessorOptions,
  SessionProcessorOptionsError,
} from './processing/session-processor-options.js';
export { retryAfterHint } from './retry/retry-after.js';
export {
  type BackoffStrategy,
  type JitterMode,
  RetryPolicy,
  type RetryPolicyOptions,
} from './retry/retry-policy.js';
export {
  DefaultRetryPolicyProvider,
  type ErrorClass,
  type RetryPolicyProvider,
} from './retry/retry-policy-provider.js';
export * from './telemetry/index.js';
export {
  type CustomCheckResult,
  type InputControl,
  type InputState,
  type InputThresholds,
  MAX_CHECK_NAME_LENGTH,
  MAX_CHECK_REASON_LENGTH,
  type StoredCustomCheck,
} from './transport/input-control.js';
export { MemoryInputControl } from './transport/memory-input-control.js';
export { MAX_ID_LENGTH } from './transport/message-validation.js';
export { RESOLVER_INPUT, replyInputOf } from './transport/routing.js';
export { MAX_DELIVERY_COUNT_REASON } from './transport/settle-validation.js';
export {
  hasChanges,
  type RetainedInput,
  type Route,
  type Topology,
  type TopologyChanges,
  topologyFromPlatform,
} from './transport/topology.js';
export type {
  AcceptOptions,
  AcceptSessionsOptions,
  BatchSettlement,
  DeadLetteredMessage,
  DeadLetterOptions,
  DeadLetterReason,
  ParkedDeadLetter,
  ParkedMessage,
  PeekedMessage,
  PublishRequest,
  PurgeTarget,
  ReceivedMessage,
  ReceiveOptions,
  ScheduleHandle,
  SessionHandle,
  SessionState,
  SettleEffects,
  Transport,
  TransportCapabilities,
  TransportCounts,
} from './transport/transport.js';
export { isTransportError, TransportError, TransportErrorCode } from './transport/transport-error.js';
export type { TransportMessage } from './transport/transport-message.js';
