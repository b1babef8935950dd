import type { ServiceBusClient, ServiceBusReceivedMessage, ServiceBusSessionReceiver } from '@azure/service-bus';
import { TransportErrorCode } from '@nimbus/core';
import { guarded, isCode } from './errors.js';
import { topicOf } from './names.js';

const RETRY_PAUSE_MS = 50;
/** Shortest wait for an answer to "is there a session?" (a round trip to the namespace). */
const MIN_NEXT_WAIT_MS = 250;

export interface Accepted {
  readonly receiver: ServiceBusSessionReceiver;
  readonly first: ServiceBusReceivedMessage[];
}

const RECEIVER_OPTIONS = { maxAutoLockRenewalDurationInMs: 0, skipParsingBodyAsJson: true } as const;

function abortAfter(ms: number, signal?: AbortSignal): { signal: AbortSignal; cancel: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  const onAbort = () => controller.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    cancel: () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    },
  };
}

/**
 * A named session, once it has a message: Service Bus locks a named session at once, so the lease is taken and
 * its first message awaited; a session another holder has is retried until the wait is over.
 */
export async function acceptNamed(
  client: ServiceBusClient,
  input: string,
  sessionId: string,
  waitMs: number,
  signal?: AbortSignal,
): Promise<Accepted | null> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    if (signal?.aborted) return null;
    try {
      const receiver = await guarded(`accept session '${sessionId}' at '${input}'`, () =>
        client.acceptSession(topicOf(input), input, sessionId, RECEIVER_OPTIONS),
      );
      const remaining = Math.max(1, deadline - Date.now());
      const first = await guarded('receive', () => receiver.receiveMessages(1, { maxWaitTimeInMs: remaining }));
      if (first.length > 0) return { receiver, first };
      await receiver.close();
      return null;
    } catch (error) {
      if (!isCode(error, TransportErrorCode.SessionCannotBeLocked)) throw error;
      if (Date.now() + RETRY_PAUSE_MS > deadline) return null;
      await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));
    }
  }
}

/** The next unlocked session with a message, or null when none comes within `waitMs`. */
export async function acceptNext(
  client: ServiceBusClient,
  input: string,
  waitMs: number,
  signal?: AbortSignal,
): Promise<Accepted | null> {
  const abort = abortAfter(Math.max(waitMs, MIN_NEXT_WAIT_MS), signal);
  try {
    const receiver = await client.acceptNextSession(topicOf(input), input, {
      ...RECEIVER_OPTIONS,
      abortSignal: abort.signal,
    });
    return { receiver, first: [] };
  } catch (error) {
    if (abort.signal.aborted) return null;
    const translated = guarded('accept next session', () => Promise.reject(error));
    return translated.catch((failure: unknown) => {
      if (isCode(failure, TransportErrorCode.Timeout)) return null;
      throw failure;
    });
  } finally {
    abort.cancel();
  }
}
