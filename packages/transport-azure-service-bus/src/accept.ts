import type {
  ServiceBusClient,
  ServiceBusReceivedMessage,
  ServiceBusSessionReceiver,
} from '@azure/service-bus';
import { TransportErrorCode } from '@nimbus/core';
import { widenDrainWait } from './drain-wait.js';
import { guarded, isCode } from './errors.js';
import { topicOf } from './names.js';
import type { NextSessionTurns } from './next-session-turns.js';

const RETRY_PAUSE_MS = 50;

export interface Accepted {
  readonly receiver: ServiceBusSessionReceiver;
  readonly first: ServiceBusReceivedMessage[];
}

const RECEIVER_OPTIONS = { maxAutoLockRenewalDurationInMs: 0, skipParsingBodyAsJson: true } as const;

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
      const receiver = widenDrainWait(
        await guarded(`accept session '${sessionId}' at '${input}'`, () =>
          client.acceptSession(topicOf(input), input, sessionId, RECEIVER_OPTIONS),
        ),
      );
      const remaining = Math.max(1, deadline - Date.now());
      const first = await guarded('receive', () =>
        receiver.receiveMessages(1, { maxWaitTimeInMs: remaining, ...abortable(signal) }),
      ).catch(async (error: unknown) => {
        // The lease goes with the failed wait (aborted or not); the wait's own error is the one to report.
        await receiver.close().catch(() => undefined);
        throw error;
      });
      // A receiver the SDK closed meanwhile has given its lease up: the message it returned is not ours.
      if (first.length > 0 && !receiver.isClosed) return { receiver, first };
      await receiver.close();
      return null;
    } catch (error) {
      if (signal?.aborted) return null;
      if (!isCode(error, TransportErrorCode.SessionCannotBeLocked)) throw error;
      if (Date.now() + RETRY_PAUSE_MS > deadline) return null;
      await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));
    }
  }
}

/**
 * The next unlocked session with a message, or null when none comes within `waitMs`. `pollClient` has a short
 * operation timeout (the server's `com.microsoft:timeout` for the attach), so the wait is a few short asks. The
 * SDK has one timeout per client, so the session found is taken over by `client` (normal timeouts for settling):
 * the poll lease is given up and the session accepted by id, which fails only if another consumer took it between.
 * `turns` lets one such ask per input run at a time, so that consumer is never another ask of this transport.
 */
export async function acceptNext(
  clients: { readonly client: ServiceBusClient; readonly pollClient: ServiceBusClient },
  turns: NextSessionTurns,
  input: string,
  waitMs: number,
  signal?: AbortSignal,
): Promise<Accepted | null> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    if (signal?.aborted) return null;
    try {
      // null: the wait ended before this ask's turn came, or the accept was aborted.
      return await turns.run(input, deadline, signal, () => askOnce(clients, input, signal));
    } catch (error) {
      if (signal?.aborted) return null;
      if (
        !isCode(error, TransportErrorCode.Timeout) &&
        !isCode(error, TransportErrorCode.SessionCannotBeLocked)
      ) {
        throw error;
      }
    }
    if (Date.now() >= deadline) return null;
  }
}

/** One short ask for the next session, handed over to the main client; null when aborted meanwhile. */
async function askOnce(
  { client, pollClient }: { readonly client: ServiceBusClient; readonly pollClient: ServiceBusClient },
  input: string,
  signal: AbortSignal | undefined,
): Promise<Accepted | null> {
  const found = await guarded('accept next session', () =>
    pollClient.acceptNextSession(topicOf(input), input, { ...RECEIVER_OPTIONS, ...abortable(signal) }),
  );
  const sessionId = found.sessionId;
  await found.close();
  if (signal?.aborted) return null;
  const receiver = await guarded(`accept session '${sessionId}' at '${input}'`, () =>
    client.acceptSession(topicOf(input), input, sessionId, RECEIVER_OPTIONS),
  );
  return { receiver: widenDrainWait(receiver), first: [] };
}

/** The SDK's abort option for a wait that `signal` ends (the SDK then rejects it with an `AbortError`). */
export function abortable(signal: AbortSignal | undefined): { abortSignal?: AbortSignal } {
  return signal ? { abortSignal: signal } : {};
}
