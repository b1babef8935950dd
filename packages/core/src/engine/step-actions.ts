import type { MessageEnvelope } from '../envelope/envelope.js';
import { retryAfterHint } from '../retry/retry-after.js';
import { UnauthorizedRequestError } from './errors.js';
import type { HandlerResult } from './invoke-handler.js';
import type { StepVerdict } from './plan.js';
import { sameEventId, withoutAwaiting } from './session-state.js';
import type { Step } from './step.js';

// The building blocks every procedure decides with: respond, block, park, complete, fail, refuse.

export function respond(step: Step, response: MessageEnvelope): void {
  step.effects.responses.push(response);
}

export function block(step: Step): void {
  step.state.blockedByEventId = step.message.eventId;
  step.state.replaying = false;
}

/** Lifts the block; parked messages, if any, are replayed before anything new is taken. */
export function unblock(step: Step): void {
  step.state.blockedByEventId = null;
  step.state.replaying = step.state.deferredCount > 0;
}

/** The event no longer waits for an operator: it is resolved (or blocks the session again). */
export function settleAwaiting(step: Step): void {
  step.state.awaitingOperator = withoutAwaiting(step.state, step.message.eventId);
}

export function isBlockedByThis(step: Step): boolean {
  return sameEventId(step.state.blockedByEventId, step.message.eventId);
}

export function authorize(step: Step, ...allowed: string[]): void {
  const from = step.message.from?.toLowerCase();
  if (!from || !allowed.some((a) => a.toLowerCase() === from)) {
    throw new UnauthorizedRequestError(
      `${step.message.messageType} from '${step.message.from ?? ''}' is not allowed; only ${allowed.join(' or ')} may send it.`,
    );
  }
}

export function park(step: Step): StepVerdict {
  const { state, message } = step;
  respond(step, step.deps.responses.deferral(message, state.blockedByEventId));
  const sequence = state.nextSequence;
  state.nextSequence += 1;
  state.deferredCount += 1;
  step.effects.park.push({ sequence, message: step.transportMessage });
  return { kind: 'parked', blockedByEventId: state.blockedByEventId };
}

export function complete(step: Step, response?: MessageEnvelope): StepVerdict {
  if (response) respond(step, response);
  return { kind: 'completed' };
}

/**
 * Refuses an operator request without running anything or changing the session: the Resolver records the
 * `RefusalResponse` (with `reason`) in the event's history and audit.
 */
export function refuse(step: Step, reason: string): StepVerdict {
  respond(step, step.deps.responses.refusal(step.message, reason, step.startedAt));
  step.deps.logger.warn(
    {
      eventId: step.message.eventId,
      sessionId: step.message.sessionId,
      messageType: step.message.messageType,
      reason,
    },
    'Refused an operator request.',
  );
  return { kind: 'refused', reason };
}

/**
 * Plans the error response and, when a retry policy matches (every failure that runs a handler, first
 * delivery, retry or resubmission alike), the retry.
 */
export function fail(step: Step, error: unknown, options: { scheduleRetry: boolean }): StepVerdict {
  const retry = options.scheduleRetry ? plannedRetry(step, error) : null;
  const response = step.deps.responses.error(step.message, error, step.startedAt);
  // The error response says whether the policy retries it, so the projection records the event as retrying.
  respond(step, retry ? { ...response, retryLimit: retry.limit, nextRetryAt: retry.at } : response);
  if (retry)
    step.effects.scheduled.push({ envelope: step.deps.responses.retryRequest(step.message), at: retry.at });
  return { kind: 'failed', error };
}

function plannedRetry(step: Step, error: unknown): { at: Date; limit: number } | null {
  const { deps, message } = step;
  const policy = deps.retryPolicies?.retryPolicyFor(message.eventTypeId, error) ?? null;
  const attempt = message.retryCount ?? 0;
  if (policy === null || attempt >= policy.maxRetries) return null;
  let delay = policy.delayFor(attempt, deps.random);
  const hint = retryAfterHint(error);
  if (hint !== null && hint > delay)
    delay = policy.maxDelayMs === null ? hint : Math.min(hint, policy.maxDelayMs);
  return { at: new Date(deps.clock.now() + delay), limit: policy.maxRetries };
}

/** Success-side responses shared by every procedure that ran the handler. */
export function respondToSuccess(
  step: Step,
  result: HandlerResult & { kind: 'handled' | 'discarded' },
): StepVerdict {
  const { responses } = step.deps;
  if (result.kind === 'discarded') {
    return complete(
      step,
      responses.discard(step.message, result.error, step.deps.classifier.name, step.startedAt),
    );
  }
  return complete(step, responses.resolution(step.message, step.startedAt));
}

/**
 * Answers a message the inbox says was already handled here: a `SkipResponse` (DuplicateDetected) and no
 * handler run. A duplicate retry or resubmission still lifts the block its event holds; when nothing blocks
 * the session, messages parked behind it are replayed.
 */
export function answerDuplicate(step: Step, options: { releaseBlock: boolean }): StepVerdict {
  if (options.releaseBlock) {
    if (isBlockedByThis(step)) unblock(step);
    else if (!step.state.blockedByEventId && step.state.deferredCount > 0) step.state.replaying = true;
    settleAwaiting(step);
  }
  respond(step, step.deps.responses.duplicate(step.message, step.startedAt));
  return { kind: 'completed', duplicate: true };
}
