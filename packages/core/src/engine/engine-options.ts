import type { Clock } from '../clock.js';
import { NimBusErrorCode } from '../errors/error-codes.js';
import { NimBusError } from '../errors/nimbus-error.js';
import type { FailureClassifier } from '../failures/failure-disposition.js';
import type { Logger } from '../logger.js';
import type { LifecycleObserver } from '../pipeline/lifecycle.js';
import type { PipelineBehaviour } from '../pipeline/pipeline.js';
import type { RetryPolicyProvider } from '../retry/retry-policy-provider.js';
import type { EventContextHandler } from './handler-context.js';
import type { EngineInbox } from './inbox-step.js';
import type { HandlerOutcomeRecorder } from './outcome-recorder.js';

export interface MessageEngineOptions {
  /** The endpoint whose input this engine consumes; responses are sent on its topic. */
  readonly endpointId: string;
  readonly handler: EventContextHandler;
  readonly clock?: Clock;
  readonly logger?: Logger;
  /** `null`/absent: failures are never retried automatically; the session stays blocked. */
  readonly retryPolicies?: RetryPolicyProvider | null;
  readonly failureClassifier?: FailureClassifier;
  readonly behaviours?: readonly PipelineBehaviour[];
  readonly observers?: readonly LifecycleObserver[];
  /** Source of randomness for retry jitter, in [0, 1). */
  readonly random?: () => number;
  /** Parked messages replayed per settlement before handing over to a continuation (default 500). */
  readonly maxReplayPerSettlement?: number;
  readonly sdkVersion?: string;
  /**
   * Consumer deduplication (`createInbox` of `@nimbus/reliability`): a redelivery of a message this endpoint
   * already handled is answered with a `SkipResponse` (DuplicateDetected) instead of running the handler again.
   */
  readonly inbox?: EngineInbox | null;
  /** Hears every business handler outcome (an `EndpointCircuitBreaker`). */
  readonly circuitBreaker?: HandlerOutcomeRecorder | null;
  /** `messaging.system` on spans and metrics: the transport's name. Default `nimbus`. */
  readonly messagingSystem?: string;
}

/** Engine options a host passes through unchanged (retries, failure classes, behaviours, observers). */
export type EngineHandlingOptions = Pick<
  MessageEngineOptions,
  'retryPolicies' | 'failureClassifier' | 'behaviours' | 'observers'
>;

/** Refuses options an engine cannot run with, naming what is missing. */
export function assertEngineOptions(options: MessageEngineOptions): void {
  if (!options?.endpointId)
    throw new NimBusError(NimBusErrorCode.InvalidArgument, 'MessageEngine needs an endpointId.');
  if (!options.handler || typeof options.handler.handle !== 'function')
    throw new NimBusError(
      NimBusErrorCode.InvalidArgument,
      'MessageEngine needs a handler with a handle(context) method.',
    );
}
