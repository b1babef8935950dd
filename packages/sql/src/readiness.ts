import { describeDriverError } from './driver-errors.js';

/** What a readiness probe answers: `ready`, or why not (one line, no secrets). */
export interface Readiness {
  readonly ready: boolean;
  readonly reason?: string;
}

/**
 * Runs a cheap probe (e.g. `select 1`) with a deadline and turns its outcome into a `Readiness`.
 * Never throws: a failing or hanging database is reported, not raised.
 */
export async function probeReadiness(
  what: string,
  probe: () => Promise<unknown>,
  timeoutMs = 2000,
): Promise<Readiness> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Readiness>((resolve) => {
    timer = setTimeout(
      () => resolve({ ready: false, reason: `${what}: no answer within ${timeoutMs} ms` }),
      timeoutMs,
    );
    timer.unref();
  });
  try {
    return await Promise.race([
      probe().then(
        (): Readiness => ({ ready: true }),
        (error: unknown): Readiness => ({ ready: false, reason: `${what}: ${describeDriverError(error)}` }),
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
