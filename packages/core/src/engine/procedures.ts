import type { MessageEnvelope } from '../envelope/envelope.js';
import { MessageType } from '../envelope/message-type.js';
import { Addresses, HEARTBEAT_EVENT_TYPE_ID } from '../platform/reserved.js';
import { retryAfterHint } from '../retry/retry-after.js';
import {
  EventHandlerNotFoundError,
  HandlerFailedError,
  HandoffFailedError,
  UnauthorizedRequestError,
  UnsupportedMessageTypeError,
} from './errors.js';
import { alreadyHandled } from './inbox-step.js';
import { type HandlerResult, invokeHandler } from './invoke-handler.js';
import { modeOf, sameEventId } from './session-state.js';
import type { Step } from './step.js';

/** Runs the procedure for the step's message type; records the verdict on the step. */
export async function dispatch(step: Step): Promise<void> {
  switch (step.message.messageType) {
    case MessageType.EventRequest:
    case MessageType.UnsupportedResponse: // legacy quirk: handled like the event it carries
      return eventRequest(step);
    case MessageType.RetryRequest:
      return retryRequest(step);
    case MessageType.ResubmissionRequest:
      return resubmissionRequest(step);
    case MessageType.SkipRequest:
      return skipRequest(step);
    case MessageType.HandoffCompletedRequest:
      return handoffCompleted(step);
    case MessageType.HandoffFailedRequest:
      return handoffFailed(step);
    case MessageType.ContinuationRequest:
    case MessageType.ProcessDeferredRequest:
      return continueReplay(step);
    default:
      throw new UnsupportedMessageTypeError(step.message.messageType);
  }
}

function isHeartbeat(message: MessageEnvelope): boolean {
  const id = message.eventTypeId ?? message.content.eventContent?.eventTypeId;
  return !!id && id.toLowerCase() === HEARTBEAT_EVENT_TYPE_ID.toLowerCase();
}

function respond(step: Step, response: MessageEnvelope): void {
  step.effects.responses.push(response);
}

function block(step: Step): void {
  step.state.blockedByEventId = step.message.eventId;
  step.state.replaying = false;
}

/** Lifts the block; parked messages, if any, are replayed before anything new is taken. */
function unblock(step: Step): void {
  step.state.blockedByEventId = null;
  step.state.replaying = step.state.deferredCount > 0;
}

function isBlockedByThis(step: Step): boolean {
  return sameEventId(step.state.blockedByEventId, step.message.eventId);
}

function authorize(step: Step, ...allowed: string[]): void {
  const from = step.message.from?.toLowerCase();
  if (!from || !allowed.some((a) => a.toLowerCase() === from)) {
    throw new UnauthorizedRequestError(
      `${step.message.messageType} from '${step.message.from ?? ''}' is not allowed; only ${allowed.join(' or ')} may send it.`,
    );
  }
}

function park(step: Step): void {
  const { state, message } = step;
  respond(step, step.deps.responses.deferral(message, state.blockedByEventId));
  const sequence = state.nextSequence;
  state.nextSequence += 1;
  state.deferredCount += 1;
  step.effects.park.push({ sequence, message: step.transportMessage });
  step.verdict = { kind: 'parked', blockedByEventId: state.blockedByEventId };
}

function complete(step: Step, response?: MessageEnvelope): void {
  if (response) respond(step, response);
  step.verdict = { kind: 'completed' };
}

/** Plans the error response (and the retry when a policy allows), then lets behaviours see the failure. */
function fail(step: Step, error: unknown, options: { scheduleRetry: boolean }): never {
  respond(step, step.deps.responses.error(step.message, error, step.startedAt));
  if (options.scheduleRetry) scheduleRetry(step, error);
  step.verdict = { kind: 'failed', error };
  throw new HandlerFailedError(error);
}

function scheduleRetry(step: Step, error: unknown): void {
  const { deps, message } = step;
  const policy = deps.retryPolicies?.retryPolicyFor(message.eventTypeId, error) ?? null;
  const attempt = message.retryCount ?? 0;
  if (policy === null || attempt >= policy.maxRetries) return;
  let delay = policy.delayFor(attempt, deps.random);
  const hint = retryAfterHint(error);
  if (hint !== null && hint > delay)
    delay = policy.maxDelayMs === null ? hint : Math.min(hint, policy.maxDelayMs);
  step.effects.scheduled.push({
    envelope: deps.responses.retryRequest(message),
    at: new Date(deps.clock.now() + delay),
  });
}

/** Success-side responses shared by every procedure that ran the handler. */
function respondToSuccess(step: Step, result: HandlerResult & { kind: 'handled' | 'discarded' }): void {
  const { responses } = step.deps;
  if (result.kind === 'discarded') {
    complete(step, responses.discard(step.message, result.error, step.deps.classifier.name, step.startedAt));
  } else {
    complete(step, responses.resolution(step.message, step.startedAt));
  }
}

/**
 * Answers a message the inbox says was already handled here: a `SkipResponse` (DuplicateDetected) and no
 * handler run. A duplicate retry or resubmission still lifts the block its event holds; when nothing blocks
 * the session, messages parked behind it are replayed.
 */
function answerDuplicate(step: Step, options: { releaseBlock: boolean }): void {
  if (options.releaseBlock) {
    if (isBlockedByThis(step)) unblock(step);
    else if (!step.state.blockedByEventId && step.state.deferredCount > 0) step.state.replaying = true;
  }
  complete(step, step.deps.responses.duplicate(step.message, step.startedAt));
  step.verdict = { kind: 'completed', duplicate: true };
}

async function eventRequest(step: Step): Promise<void> {
  const { responses } = step.deps;
  if (isHeartbeat(step.message)) return complete(step, responses.heartbeat(step.message, step.startedAt));
  // Before the session guard: a duplicate is answered even in a blocked session, never parked.
  if (await alreadyHandled(step)) return answerDuplicate(step, { releaseBlock: false });
  const mode = modeOf(step.state);
  if (mode === 'blocked' || (mode === 'replaying' && !step.isReplay)) return park(step);
  const result = await invokeHandler(step);
  switch (result.kind) {
    case 'notFound':
      return complete(step, responses.unsupported(step.message, step.startedAt));
    case 'failed':
      block(step);
      return fail(step, result.error, { scheduleRetry: true });
    case 'handled':
      if (result.handoff) {
        block(step);
        return complete(step, responses.pendingHandoff(step.message, result.handoff, step.startedAt));
      }
      return respondToSuccess(step, result);
    case 'discarded':
      return respondToSuccess(step, result);
  }
}

async function retryRequest(step: Step): Promise<void> {
  if (await alreadyHandled(step)) return answerDuplicate(step, { releaseBlock: true });
  if (!isBlockedByThis(step)) {
    // Fixed: a stale retry (the event was skipped, resubmitted or already resolved) changes nothing and
    // reports nothing, so it cannot overwrite the event's real outcome.
    step.deps.logger.info(
      { eventId: step.message.eventId, sessionId: step.message.sessionId },
      'Ignoring a retry for an event that no longer blocks its session.',
    );
    return complete(step);
  }
  const result = await invokeHandler(step);
  switch (result.kind) {
    case 'notFound':
      throw new EventHandlerNotFoundError(step.message.eventTypeId);
    case 'failed':
      return fail(step, result.error, { scheduleRetry: true });
    case 'handled':
      if (result.handoff) {
        return complete(
          step,
          step.deps.responses.pendingHandoff(step.message, result.handoff, step.startedAt),
        );
      }
      unblock(step);
      return respondToSuccess(step, result);
    case 'discarded':
      unblock(step);
      return respondToSuccess(step, result);
  }
}

async function resubmissionRequest(step: Step): Promise<void> {
  authorize(step, Addresses.manager);
  const { responses } = step.deps;
  if (await alreadyHandled(step)) return answerDuplicate(step, { releaseBlock: true });
  const result = await invokeHandler(step);
  switch (result.kind) {
    case 'notFound':
      return complete(step, responses.unsupported(step.message, step.startedAt));
    case 'failed':
      return fail(step, result.error, { scheduleRetry: false });
    case 'handled':
      if (result.handoff) {
        const blockedByOther = step.state.blockedByEventId !== null && !isBlockedByThis(step);
        if (!blockedByOther) block(step);
        return complete(step, responses.pendingHandoff(step.message, result.handoff, step.startedAt));
      }
      if (isBlockedByThis(step)) unblock(step);
      return respondToSuccess(step, result);
    case 'discarded':
      if (isBlockedByThis(step)) unblock(step);
      return respondToSuccess(step, result);
  }
}

function skipRequest(step: Step): void {
  authorize(step, Addresses.manager);
  if (isBlockedByThis(step)) unblock(step);
  complete(step, step.deps.responses.skip(step.message, step.startedAt));
}

function handoffCompleted(step: Step): void {
  authorize(step, Addresses.manager);
  if (isBlockedByThis(step)) unblock(step);
  // The handler is never invoked: the external work is done; its result (if any) is the content.
  complete(step, step.deps.responses.resolution(step.message, step.startedAt, step.message.content));
}

function handoffFailed(step: Step): void {
  authorize(step, Addresses.manager);
  if (!isBlockedByThis(step)) {
    step.deps.logger.info(
      { eventId: step.message.eventId, sessionId: step.message.sessionId },
      'Ignoring a handoff failure for an event that no longer blocks its session.',
    );
    complete(step);
    return;
  }
  const error = step.message.content.errorContent;
  const failure = new HandoffFailedError(error?.errorText || 'Handoff failed.', error?.errorType ?? null);
  // The session stays blocked: an operator resubmits or skips the event.
  fail(step, failure, { scheduleRetry: false });
}

/**
 * `ContinuationRequest` is the engine's own "keep replaying" trigger; `ProcessDeferredRequest` is the
 * operator's "reprocess deferred", which lifts the block first. Neither sends a response.
 */
function continueReplay(step: Step): void {
  authorize(step, Addresses.manager, Addresses.continuation);
  if (step.message.messageType === MessageType.ProcessDeferredRequest && step.state.blockedByEventId) {
    step.state.blockedByEventId = null;
  }
  if (!step.state.blockedByEventId) step.state.replaying = true; // an empty line simply returns to open
  complete(step);
}
