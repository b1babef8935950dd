/** What a readiness probe answers: ready, or why not (one line, no secrets). */
export interface Readiness {
  readonly ready: boolean;
  readonly reason?: string;
}

/** A component that can say whether it can do its work now (e.g. its database answers). */
export interface ReadinessProbe {
  checkReadiness(): Promise<Readiness>;
}

export interface ReadinessReport {
  readonly ready: boolean;
  readonly checks: Readonly<Record<string, Readiness>>;
}

/** Runs a cheap probe with a deadline; a failing or hanging dependency is reported, never thrown. */
export async function probeReadiness(
  what: string,
  probe: () => Promise<unknown>,
  timeoutMs = 2_000,
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
        (error: unknown): Readiness => ({
          ready: false,
          reason: `${what}: ${error instanceof Error ? error.message : String(error)}`,
        }),
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The component's own `checkReadiness()` when it has one (the SQL store checks its migrations too),
 * else a probe of a cheap read.
 */
export function readinessOf(
  component: unknown,
  what: string,
  cheapRead: () => Promise<unknown>,
): Promise<Readiness> {
  const own = (component as Partial<ReadinessProbe> | null)?.checkReadiness;
  if (typeof own === 'function')
    return probeReadiness(what, async () => {
      const readiness = await own.call(component);
      if (!readiness.ready) throw new Error(readiness.reason ?? 'not ready');
    });
  return probeReadiness(what, cheapRead);
}

/** Runs every check at once; ready when all are. */
export async function readinessReport(
  checks: Readonly<Record<string, () => Promise<Readiness>>>,
): Promise<ReadinessReport> {
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, check]) => [name, await check()] as const),
  );
  return { ready: entries.every(([, r]) => r.ready), checks: Object.fromEntries(entries) };
}
