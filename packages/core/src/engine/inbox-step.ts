import { TransientError } from '../errors/handling-errors.js';
import type { Step } from './step.js';

/**
 * What the engine needs from an inbox (`createInbox` of `@nimbus/reliability` fits). `check` answers
 * `process` (handle and record), `duplicate` (already handled here: skip) or `bypass` (ids unusable for
 * deduplication: handle without recording).
 */
export interface EngineInbox {
  check(endpointId: string, messageId: string): Promise<'process' | 'duplicate' | 'bypass'>;
  record(endpointId: string, messageId: string): Promise<void>;
}

/** The inbox store could not be read or written; transient: the message is abandoned and delivered again. */
export class InboxUnavailableError extends TransientError {
  override readonly name: string = 'InboxUnavailableError';
}

/**
 * The inbox pre-check, run before the session guard. Returns true when this endpoint already handled the
 * message; otherwise remembers whether a handler success must be recorded.
 */
export async function alreadyHandled(step: Step): Promise<boolean> {
  const { inbox, endpointId } = step.deps;
  if (!inbox) return false;
  let decision: Awaited<ReturnType<EngineInbox['check']>>;
  try {
    decision = await inbox.check(endpointId, step.message.messageId);
  } catch (error) {
    throw new InboxUnavailableError(
      `The inbox check of message ${step.message.messageId} failed; it will be delivered again.`,
      { cause: error },
    );
  }
  step.inboxGuarded = decision === 'process';
  return decision === 'duplicate';
}

/** Records a successful handling (default outcome only), before the Resolver hears of it. */
export async function recordHandled(step: Step): Promise<void> {
  const { inbox, endpointId } = step.deps;
  if (!inbox || !step.inboxGuarded) return;
  try {
    await inbox.record(endpointId, step.message.messageId);
  } catch (error) {
    throw new InboxUnavailableError(
      `Recording message ${step.message.messageId} in the inbox failed; it will be delivered again.`,
      { cause: error },
    );
  }
}
