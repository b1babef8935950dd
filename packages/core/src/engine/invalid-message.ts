import type { InvalidMessageError } from '../envelope/invalid-message-error.js';
import { encodeEnvelope } from '../envelope/wire.js';
import type { LifecycleContext, LifecycleEvent } from '../pipeline/lifecycle.js';
import type { ReceivedMessage } from '../transport/transport.js';
import { invalidMessageNotice, rawLifecycleContext } from './engine-support.js';
import type { Settlements } from './settlements.js';
import type { EngineDeps } from './step.js';

/** Dead-letters an unreadable message, telling the Resolver when enough identity is readable. */
export async function deadLetterInvalid(
  deps: EngineDeps,
  notify: (context: LifecycleContext, event: LifecycleEvent) => Promise<void>,
  settlements: Settlements,
  received: ReceivedMessage,
  error: InvalidMessageError,
): Promise<void> {
  const reason = error.message;
  const notice = invalidMessageNotice(deps, received, reason);
  const notices = notice ? [notice] : [];
  const publish =
    notices.length > 0 ? [{ source: deps.endpointId, messages: notices.map(encodeEnvelope) }] : [];
  await settlements.deadLetter(received, {
    reason,
    description: reason,
    effects: publish.length > 0 ? { publish } : {},
  });
  await settlements.afterCommit(async () => {
    deps.logger.warn(
      { messageId: received.messageId, sessionId: received.sessionId, reason },
      'Dead-lettered an invalid message.',
    );
    const context = rawLifecycleContext(received, deps.endpointId, deps.clock.now());
    await notify(context, { kind: 'received' });
    await notify(context, { kind: 'failed', error });
    await notify(context, { kind: 'deadLettered', reason, error });
  });
}
