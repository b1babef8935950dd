import { errorMessage, errorTypeName } from '../errors/cause-chain.js';
import { NimBusErrorCode } from '../errors/error-codes.js';
import { PermanentFailureError, TransientError } from '../errors/handling-errors.js';
import { isNimBusError, isRetryableError, NimBusError } from '../errors/nimbus-error.js';
import { createHandlingContext, type PendingHandoff } from './handler-context.js';
import { recordHandled } from './inbox-step.js';
import type { Step } from './step.js';

export type HandlerResult =
  | { readonly kind: 'handled'; readonly handoff: PendingHandoff | null }
  | { readonly kind: 'notFound' }
  | { readonly kind: 'discarded'; readonly error: unknown }
  | { readonly kind: 'failed'; readonly error: unknown };

/** A handler stopped by its signal: transient, so the message is abandoned and delivered again, not failed. */
function cancelled(signal: AbortSignal, error: unknown): TransientError {
  const reason = signal.reason instanceof Error ? signal.reason.message : String(signal.reason);
  return new TransientError(`The handler was cancelled (${reason}); the message will be delivered again`, {
    cause: error,
  });
}

export function permanentReason(error: unknown): string {
  if (isNimBusError(error, NimBusErrorCode.PermanentFailure)) return `Permanent failure: ${error.message}`;
  return `Permanent failure: ${errorTypeName(error)}: ${errorMessage(error)}`;
}

/**
 * Runs the business handler and classifies what it threw. Retryable and permanent failures propagate
 * unchanged; other failures go through the failure classifier (retry / dead-letter / discard). A success with
 * the default outcome (no handoff) is recorded in the inbox before anything is answered. The circuit breaker
 * hears of every handler outcome except "no handler" and permanent (data) failures, which say nothing about
 * the health of the system behind the handler.
 */
export async function invokeHandler(step: Step): Promise<HandlerResult> {
  const { deps, message } = step;
  const context = createHandlingContext(message, deps.endpointId, step.isReplay, step.deliveryCount);
  try {
    await deps.handler.handle(context);
  } catch (error) {
    if (context.signal.aborted) throw cancelled(context.signal, error);
    if (isNimBusError(error, NimBusErrorCode.HandlerNotFound)) return { kind: 'notFound' };
    if (isNimBusError(error, NimBusErrorCode.PermanentFailure)) throw error;
    step.outcomes.failure(error);
    if (isRetryableError(error)) throw error;
    const disposition = deps.classifier.classify(error, message.eventTypeId, deps.endpointId);
    switch (disposition) {
      case 'retry':
        return { kind: 'failed', error };
      case 'discard':
        return { kind: 'discarded', error };
      case 'deadLetter':
        throw new PermanentFailureError(`${errorTypeName(error)}: ${errorMessage(error)}`, { cause: error });
      default:
        throw new NimBusError(
          NimBusErrorCode.InvalidArgument,
          `Failure classifier '${deps.classifier.name}' returned '${String(disposition)}'.`,
        );
    }
  }
  step.outcomes.success();
  if (context.pendingHandoff === null) await recordHandled(step);
  return { kind: 'handled', handoff: context.pendingHandoff };
}
