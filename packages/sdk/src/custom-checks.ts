import {
  type Clock,
  type CustomCheckResult,
  type InputControl,
  type Logger,
  NimBusError,
  NimBusErrorCode,
} from '@nimbus/core';

/** What a custom check answers. */
export interface CustomCheckOutcome {
  readonly healthy: boolean;
  /** Why it is unhealthy (shown in the console and in alerts). */
  readonly reason?: string;
}

/**
 * A health check an adapter registers with its endpoint host (a database it needs, a partner API, disk space).
 * The host runs it at start and every `intervalMs`; the console shows its latest result and can alert on it.
 */
export interface CustomCheck {
  /** Unique per endpoint; shown in the console. */
  readonly name: string;
  /** Default 30 000. */
  readonly intervalMs?: number;
  /** A check that throws or takes longer than `timeoutMs` (default 10 000) counts as unhealthy. */
  readonly timeoutMs?: number;
  run(): CustomCheckOutcome | Promise<CustomCheckOutcome>;
}

const DEFAULT_INTERVAL_MS = 30_000;
const DEFAULT_TIMEOUT_MS = 10_000;

/** Runs one check once: a throw or a timeout is an unhealthy result naming it. */
export async function runCustomCheck(check: CustomCheck, clock: Clock): Promise<CustomCheckResult> {
  const timeoutMs = check.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<CustomCheckOutcome>((resolve) => {
    timer = setTimeout(
      () => resolve({ healthy: false, reason: `check timed out after ${timeoutMs} ms` }),
      timeoutMs,
    );
  });
  try {
    const outcome = await Promise.race([Promise.resolve().then(() => check.run()), timeout]);
    if (typeof outcome?.healthy !== 'boolean')
      return result(check, clock, false, 'check returned no { healthy: boolean } outcome');
    return result(check, clock, outcome.healthy, outcome.reason ?? null);
  } catch (error) {
    return result(check, clock, false, `check threw: ${(error as Error)?.message ?? String(error)}`);
  } finally {
    clearTimeout(timer);
  }
}

function result(
  check: CustomCheck,
  clock: Clock,
  healthy: boolean,
  reason: string | null,
): CustomCheckResult {
  return { name: check.name, healthy, reason, checkedAt: new Date(clock.now()) };
}

/** Validates a check before it is registered: a clear error instead of a check that never reports. */
export function assertCustomCheck(check: CustomCheck, known: readonly CustomCheck[]): void {
  if (typeof check?.name !== 'string' || check.name.trim() === '' || check.name.length > 200)
    throw new NimBusError(
      NimBusErrorCode.InvalidArgument,
      'A custom check needs a name of 1 to 200 characters.',
    );
  if (typeof check.run !== 'function')
    throw new NimBusError(
      NimBusErrorCode.InvalidArgument,
      `Custom check '${check.name}' needs a run() function.`,
    );
  for (const key of ['intervalMs', 'timeoutMs'] as const) {
    const value = check[key];
    if (value !== undefined && (!Number.isInteger(value) || value < 10))
      throw new NimBusError(
        NimBusErrorCode.InvalidArgument,
        `Custom check '${check.name}': ${key} must be an integer of at least 10 (ms).`,
      );
  }
  if (known.some((k) => k.name === check.name))
    throw new NimBusError(
      NimBusErrorCode.InvalidArgument,
      `A custom check named '${check.name}' is already registered.`,
    );
}

/** Runs an endpoint's checks on their intervals and reports each result to the transport's control state. */
export class CustomCheckRunner {
  readonly #timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly endpointId: string,
    private readonly checks: readonly CustomCheck[],
    private readonly control: InputControl,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** Runs every check once (awaited, so the console has a result when the host is up), then on intervals. */
  async start(): Promise<void> {
    await Promise.all(this.checks.map((c) => this.runAndReport(c)));
    for (const check of this.checks) {
      const timer = setInterval(() => void this.runAndReport(check), check.intervalMs ?? DEFAULT_INTERVAL_MS);
      timer.unref();
      this.#timers.push(timer);
    }
  }

  stop(): void {
    for (const timer of this.#timers.splice(0)) clearInterval(timer);
  }

  async runAndReport(check: CustomCheck): Promise<CustomCheckResult> {
    const outcome = await runCustomCheck(check, this.clock);
    try {
      await this.control.reportChecks(this.endpointId, [outcome]);
    } catch (error) {
      this.logger.warn(
        { endpoint: this.endpointId, check: check.name, err: String(error) },
        'Could not report a custom check result',
      );
    }
    return outcome;
  }
}
