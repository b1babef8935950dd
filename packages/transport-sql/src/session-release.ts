import type { HeldLease } from './held-lease.js';

/**
 * Ends a lease: a live lease hands the messages it holds back uncounted (a lapsed one already counted them), the
 * session's `message_count` is set exactly (settling does not always decrement it), an idle session's row goes,
 * and a session with work left is announced. `locked_until = now` stamps the end of the turn: accept-next serves
 * sessions in that order, so a session released with work waiting goes behind the ones that waited longer.
 */
export async function releaseLease(lease: HeldLease): Promise<void> {
  const { core } = lease;
  core.lifecycle.assertUsable('release');
  const released = await core.db.transaction((tx) => core.dialect.release.endLease(core, lease, tx));
  if (released) core.wakeLocal(released);
}
