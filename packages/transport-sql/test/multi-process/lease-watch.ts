import type { SessionHandle } from '@nimbus/core';

/**
 * Records every new `lockedUntil` of `session` while a handler hangs on it (the session processor renews the
 * lease meanwhile), so the test knows when the killed holder's lease really ended instead of guessing from the
 * kill time.
 */
export function watchLease(session: SessionHandle, record: (entry: Record<string, unknown>) => void): void {
  let until = 0;
  const look = () => {
    const now = session.lockedUntil.getTime();
    if (now === until) return;
    until = now;
    record({ kind: 'lease', session: session.sessionId, until });
  };
  look();
  setInterval(look, 5);
}
