import type { MessageEnvelope } from '../envelope/envelope.js';
import { MessageType } from '../envelope/message-type.js';
import { HEARTBEAT_EVENT_TYPE_ID } from '../platform/reserved.js';
import { EventHandlerNotFoundError, UnsupportedMessageTypeError } from './errors.js';
import { alreadyHandled } from './inbox-step.js';
import { invokeHandler } from './invoke-handler.js';
import {
  continueReplay,
  handoffCompleted,
  handoffFailed,
  resubmissionRequest,
  skipRequest,
} from './operator-requests.js';
import type { StepVerdict } from './plan.js';
import { modeOf, withAwaiting } from './session-state.js';
import type { Step } from './step.js';
import {
  answerDuplicate,
  block,
  complete,
  fail,
  isBlockedByThis,
  park,
  respondToSuccess,
  unblock,
} from './step-actions.js';

/** Runs the procedure for the step's message type and returns what it decided. */
export async function dispatch(step: Step): Promise<StepVerdict> {
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

async function eventRequest(step: Step): Promise<StepVerdict> {
  const { responses } = step.deps;
  if (isHeartbeat(step.message)) return complete(step, responses.heartbeat(step.message, step.startedAt));
  // Before the session guard: a duplicate is answered even in a blocked session, never parked.
  if (await alreadyHandled(step)) return answerDuplicate(step, { releaseBlock: false });
  const mode = modeOf(step.state);
  if (mode === 'blocked' || (mode === 'replaying' && !step.isReplay)) return park(step);
  const result = await invokeHandler(step);
  switch (result.kind) {
    case 'notFound':
      // Unsupported here: an operator may resubmit it once a handler exists, or skip it.
      if (step.message.eventId) step.state.awaitingOperator = withAwaiting(step.state, step.message.eventId);
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

async function retryRequest(step: Step): Promise<StepVerdict> {
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
