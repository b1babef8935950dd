import { MessageType } from '../envelope/message-type.js';
import { Addresses } from '../platform/reserved.js';
import { HandoffFailedError } from './errors.js';
import { alreadyHandled } from './inbox-step.js';
import { invokeHandler } from './invoke-handler.js';
import type { StepVerdict } from './plan.js';
import { isAwaitingOperator, withAwaiting } from './session-state.js';
import type { Step } from './step.js';
import {
  answerDuplicate,
  authorize,
  block,
  complete,
  fail,
  isBlockedByThis,
  refuse,
  respondToSuccess,
  settleAwaiting,
  unblock,
} from './step-actions.js';

// Operator requests. The engine holding the session is the authority: the store the operator looked at may lag
// the bus, so a request acts only on an event that still awaits it here and is refused otherwise, without
// running a handler or touching the session (a `RefusalResponse` tells the Resolver why).

/**
 * Why the engine refuses `step`'s request, or `null` when it may act. Every request may act on the event that
 * blocks the session. A resubmit or skip may also act on an event that ended dead-lettered or unsupported here
 * without blocking (it awaits an operator), but not while another event blocks the session: that event comes
 * first. Such an event left its session's order (later events went on), so resubmitting it runs it after them:
 * only a resubmission that carries the operator's acknowledgement (`AcknowledgeOutOfOrder`) may do that; a skip
 * needs none. Anything else (the event completed, was skipped, was resubmitted already, or never failed here) is
 * stale.
 */
function refusalReason(
  step: Step,
  action: 'resubmitted' | 'skipped' | 'settled as a handoff',
): string | null {
  if (isBlockedByThis(step)) return null;
  const { state, message, deps } = step;
  const where = `session '${message.sessionId}' at '${deps.endpointId}'`;
  const blocker = state.blockedByEventId;
  if (action !== 'settled as a handoff' && isAwaitingOperator(state, message.eventId)) {
    if (blocker) {
      return `Event '${message.eventId}' cannot be ${action} while event '${blocker}' blocks ${where}; resolve that event first.`;
    }
    if (action === 'resubmitted' && !message.acknowledgeOutOfOrder) {
      return `Event '${message.eventId}' was not resubmitted: it was dead-lettered or unsupported in ${where}, which went on with its later events, so resubmitting runs it after later events of the session; confirm out-of-order (AcknowledgeOutOfOrder) to run it anyway, or skip it. Nothing was run.`;
    }
    return null;
  }
  const now = blocker ? `the session is blocked by event '${blocker}'` : 'the session is not blocked';
  return `Event '${message.eventId}' cannot be ${action}: it does not await an operator in ${where} (${now}); it was already resolved, or never failed here. Nothing was run.`;
}

export async function resubmissionRequest(step: Step): Promise<StepVerdict> {
  authorize(step, Addresses.manager);
  const refusal = refusalReason(step, 'resubmitted');
  if (refusal !== null) return refuse(step, refusal);
  if (await alreadyHandled(step)) return answerDuplicate(step, { releaseBlock: true });
  const wasBlocking = isBlockedByThis(step);
  const { responses } = step.deps;
  settleAwaiting(step);
  const result = await invokeHandler(step);
  switch (result.kind) {
    case 'notFound':
      // Still no handler: it keeps waiting for an operator (and keeps the block it held).
      step.state.awaitingOperator = withAwaiting(step.state, step.message.eventId ?? '');
      return complete(step, responses.unsupported(step.message, step.startedAt));
    case 'failed':
      // The same rules as a first delivery: the event blocks its session and a matching policy retries it.
      block(step);
      return fail(step, result.error, { scheduleRetry: true });
    case 'handled':
      if (result.handoff) {
        block(step);
        return complete(step, responses.pendingHandoff(step.message, result.handoff, step.startedAt));
      }
      if (wasBlocking) unblock(step);
      return respondToSuccess(step, result);
    case 'discarded':
      if (wasBlocking) unblock(step);
      return respondToSuccess(step, result);
  }
}

export function skipRequest(step: Step): StepVerdict {
  authorize(step, Addresses.manager);
  const refusal = refusalReason(step, 'skipped');
  if (refusal !== null) return refuse(step, refusal);
  if (isBlockedByThis(step)) unblock(step);
  settleAwaiting(step);
  return complete(step, step.deps.responses.skip(step.message, step.startedAt));
}

export function handoffCompleted(step: Step): StepVerdict {
  authorize(step, Addresses.manager);
  const refusal = refusalReason(step, 'settled as a handoff');
  if (refusal !== null) return refuse(step, refusal);
  unblock(step);
  // The handler is never invoked: the external work is done; its result (if any) is the content.
  return complete(step, step.deps.responses.resolution(step.message, step.startedAt, step.message.content));
}

export function handoffFailed(step: Step): StepVerdict {
  authorize(step, Addresses.manager);
  const refusal = refusalReason(step, 'settled as a handoff');
  if (refusal !== null) return refuse(step, refusal);
  const error = step.message.content.errorContent;
  const failure = new HandoffFailedError(error?.errorText || 'Handoff failed.', error?.errorType ?? null);
  // The session stays blocked: an operator resubmits or skips the event.
  return fail(step, failure, { scheduleRetry: false });
}

/**
 * `ContinuationRequest` is the engine's own "keep replaying" trigger; `ProcessDeferredRequest` is the
 * operator's "reprocess deferred". Neither lifts a block (that would run parked messages before the event that
 * blocks them): the operator's request is refused while the session is blocked. Otherwise both replay what is
 * parked (an empty line simply returns to open) and send no response.
 */
export function continueReplay(step: Step): StepVerdict {
  authorize(step, Addresses.manager, Addresses.continuation);
  const blocker = step.state.blockedByEventId;
  if (blocker) {
    if (step.message.messageType !== MessageType.ProcessDeferredRequest) return complete(step);
    return refuse(
      step,
      `Session '${step.message.sessionId}' at '${step.deps.endpointId}' is blocked by event '${blocker}'; resubmit or skip that event, its parked messages then replay in order.`,
    );
  }
  step.state.replaying = true;
  return complete(step);
}
