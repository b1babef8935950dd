import { type AmqpMessage, deadLetterCopy, messageSize } from './message.js';
import type { Namespace } from './namespace.js';
import type { Subscription } from './subscription.js';

/** Service Bus forwards a message through at most four entities; past that it is dead-lettered. */
export const MAX_FORWARD_HOPS = 4;
const HOPS = 'x-opt-nimbus-forward-hops';
export const HOPS_EXCEEDED_REASON = 'MaxTransferHopCountExceeded';

/**
 * Sends `message`, taken by `from` (a subscription or queue with `forwardTo`), on to its target. The
 * target's send is one of its own: its quotas, rules and session checks apply there. A message that
 * already went through four forwards lands in `from`'s dead-letter sub-queue instead.
 */
export function forward(namespace: Namespace, from: Subscription, message: AmqpMessage): void {
  const hops = Number(message.message_annotations?.[HOPS] ?? 0) + 1;
  const target = from.properties.forwardTo!;
  if (hops > MAX_FORWARD_HOPS) {
    const dead = deadLetterCopy(
      message,
      from.queue.path,
      HOPS_EXCEEDED_REASON,
      `The message was forwarded ${MAX_FORWARD_HOPS} times; the next hop to '${target}' exceeds the limit.`,
    );
    namespace.budget.reserve(1, messageSize(dead));
    from.deadLetter.enqueue(dead, namespace.nextSequence(), Date.now());
    return;
  }
  namespace
    .resolveForSend(target)
    .send([{ ...message, message_annotations: { ...message.message_annotations, [HOPS]: hops } }]);
}
