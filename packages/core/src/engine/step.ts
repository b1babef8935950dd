import type { Clock } from '../clock.js';
import type { MessageEnvelope } from '../envelope/envelope.js';
import type { FailureClassifier } from '../failures/failure-disposition.js';
import type { Logger } from '../logger.js';
import type { RetryPolicyProvider } from '../retry/retry-policy-provider.js';
import type { TransportMessage } from '../transport/transport-message.js';
import type { EventContextHandler } from './handler-context.js';
import type { EngineInbox } from './inbox-step.js';
import type { SettlementOutcomes } from './outcome-recorder.js';
import type { EffectsBuilder } from './plan.js';
import type { ResponseBuilder } from './responses.js';
import type { EngineSessionState } from './session-state.js';

/** The collaborators every procedure uses. */
export interface EngineDeps {
  readonly endpointId: string;
  readonly handler: EventContextHandler;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly responses: ResponseBuilder;
  readonly retryPolicies: RetryPolicyProvider | null;
  readonly classifier: FailureClassifier;
  readonly random: () => number;
  /** `null`: no deduplication. */
  readonly inbox: EngineInbox | null;
}

/** One message on its way through a procedure: it edits a working copy of state and its own effects. */
export interface Step {
  readonly deps: EngineDeps;
  readonly message: MessageEnvelope;
  /** The message as it travels, kept unchanged for parking. */
  readonly transportMessage: TransportMessage;
  readonly isReplay: boolean;
  readonly deliveryCount: number;
  readonly startedAt: number;
  readonly state: EngineSessionState;
  readonly effects: EffectsBuilder;
  /** Handler outcomes of the settlement this step belongs to (for the circuit breaker). */
  readonly outcomes: SettlementOutcomes;
  /** Set by the inbox pre-check: a handler success must be recorded in the inbox. */
  inboxGuarded: boolean;
}
