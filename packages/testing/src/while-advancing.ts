import { setTimeout as pause } from 'node:timers/promises';
import type { ManualClock } from '@nimbus/core';

/**
 * Awaits `work` while moving `clock` forward `stepMs` at a time (2 ms of real time apart), so a handler that
 * backs off in place on the manual clock gets to retry. Answers how much time it moved.
 */
export async function whileAdvancing(
  clock: ManualClock,
  work: Promise<unknown>,
  stepMs = 1_000,
  maxSteps = 10_000,
): Promise<number> {
  let done = false;
  let failure: unknown = null;
  const settled = work.then(
    () => {
      done = true;
    },
    (error: unknown) => {
      done = true;
      failure = error;
    },
  );
  let moved = 0;
  for (let step = 0; step < maxSteps && !done; step++) {
    // A little real time per step, so real I/O (a PostgreSQL store) keeps up with the manual clock.
    await pause(2);
    if (done) break;
    clock.advance(stepMs);
    moved += stepMs;
  }
  await settled;
  if (failure !== null) throw failure;
  return moved;
}
