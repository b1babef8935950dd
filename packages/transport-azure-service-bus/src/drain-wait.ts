import type { ServiceBusSessionReceiver } from '@azure/service-bus';

/**
 * How long a receive waits for the broker to answer its drain. The SDK (7.9) waits only 200 ms and then closes
 * the receiver, which gives the session lease up while the caller still holds messages of it: the broker hands
 * them to the next holder without counting a delivery, and the first holder's settlements fail. On a loaded
 * machine the answer often takes longer than 200 ms (seen in the multi-process test and the bench). The session
 * lock renewer keeps running meanwhile, so a long wait costs nothing but the wait.
 */
export const DRAIN_REPLY_WAIT_MS = 10_000;

interface BatchingReceiverView {
  _messageSession?: { _batchingReceiverLite?: { _drainTimeoutInMs?: number } };
}

/**
 * Lets `receiver` wait {@link DRAIN_REPLY_WAIT_MS} for a drain answer instead of the SDK's 200 ms. This reaches
 * into the client's internals (the SDK's own testing hook), so it does nothing when they differ; the session
 * handle still refuses to hand out messages of a receiver that was closed under it.
 */
export function widenDrainWait(receiver: ServiceBusSessionReceiver): ServiceBusSessionReceiver {
  const batching = (receiver as unknown as BatchingReceiverView)._messageSession?._batchingReceiverLite;
  if (batching && typeof batching._drainTimeoutInMs === 'number') {
    batching._drainTimeoutInMs = DRAIN_REPLY_WAIT_MS;
  }
  return receiver;
}
