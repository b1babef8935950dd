import { asBrokerError } from '../wire/errors.js';
import { lockedUntilProperty } from './management.js';
import type { OutgoingLink } from './outgoing-link.js';

const SESSION_FILTER = 'com.microsoft:session-filter';
const TIMEOUT_PROPERTY = 'com.microsoft:timeout';
const DEFAULT_ACCEPT_WAIT_MS = 60_000;

/** Holds back the attach reply (rhea opens the local end as soon as the peer's attach arrives). */
function deferAttach(receiver: OutgoingLink): void {
  receiver.link.state.local_open = false;
  receiver.link.state.open_requests = 0;
}

function completeAttach(receiver: OutgoingLink, sessionId: string, lockedUntil: number): void {
  const link = receiver.link;
  const source = link.remote.attach?.source ?? {};
  link.set_source({
    address: source.address,
    // Plain maps: rhea wraps terminus filters and attach properties itself (a typed map here is wrapped twice).
    filter: { [SESSION_FILTER]: sessionId },
  });
  link.local.attach.properties = { 'com.microsoft:locked-until-utc': lockedUntilProperty(lockedUntil) };
  receiver.sessionId = sessionId;
  link.open();
  receiver.start();
}

/**
 * A session receiver: a named session is locked at once (it need not have messages yet); with no name the attach
 * waits up to the link's `com.microsoft:timeout` for an unlocked session with a message, and otherwise fails with
 * `com.microsoft:timeout` (the SDK's ServiceTimeout).
 */
export function attachSessionReceiver(
  receiver: OutgoingLink,
  filter: Record<string, unknown> | undefined,
  properties: Record<string, unknown>,
): void {
  const queue = receiver.queue;
  const named = filter?.[SESSION_FILTER];
  if (typeof named === 'string') {
    try {
      const session = queue.lockSession(named, receiver);
      deferAttach(receiver);
      completeAttach(receiver, session.id, session.lockedUntil);
    } catch (error) {
      receiver.link.set_source(null);
      receiver.close(asBrokerError(error).toAmqp());
    }
    return;
  }
  deferAttach(receiver);
  const timeout = Number(properties[TIMEOUT_PROPERTY] ?? DEFAULT_ACCEPT_WAIT_MS);
  void queue.lockNextSession(receiver, timeout).then((session) => {
    if (receiver.link.is_closed()) {
      if (session) queue.removeConsumer(receiver);
      return;
    }
    if (session) {
      completeAttach(receiver, session.id, session.lockedUntil);
      return;
    }
    receiver.link.set_source(null);
    receiver.link.open();
    receiver.close({
      condition: 'com.microsoft:timeout',
      description: `no unlocked session with messages became available in ${timeout} ms`,
    });
  });
}
