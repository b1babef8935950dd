import type { Clock, Logger } from '@nimbus/core';
import { NimBusError, NimBusErrorCode } from '@nimbus/core';
import type { RetentionSweepResult } from '@nimbus/message-store';

export const DEFAULT_SWEEP_INTERVAL_MS = 5 * 60_000;

export interface RetentionSweeperOptions {
  /** Runs one sweep (the store's `sweepExpired`). */
  readonly sweep: () => Promise<RetentionSweepResult>;
  readonly intervalMs?: number;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Called after every successful sweep (tests, metrics). */
  readonly onSweep?: (result: RetentionSweepResult) => void;
}

export interface RetentionSweeper {
  /** Stops the loop and waits for a sweep in progress to finish. */
  stop(): Promise<void>;
}

/**
 * Sweeps expired rows every `intervalMs` until stopped. A failed sweep is logged and retried on the next
 * tick: a database hiccup must never end the job.
 */
export function startRetentionSweeper(options: RetentionSweeperOptions): RetentionSweeper {
  const intervalMs = options.intervalMs ?? DEFAULT_SWEEP_INTERVAL_MS;
  if (!Number.isInteger(intervalMs) || intervalMs <= 0) {
    throw new NimBusError(
      NimBusErrorCode.InvalidOption,
      `Invalid store option 'retentionSweep.intervalMs': ${intervalMs}. Expected a positive whole number of milliseconds.`,
    );
  }
  const abort = new AbortController();
  const loop = (async () => {
    while (!abort.signal.aborted) {
      await options.clock.sleep(intervalMs, abort.signal);
      if (abort.signal.aborted) break;
      try {
        const result = await options.sweep();
        options.onSweep?.(result);
        const deleted = Object.values(result).reduce((sum, n) => sum + n, 0);
        if (deleted > 0)
          options.logger.info({ ...result }, 'message store: retention sweep deleted expired rows');
      } catch (error) {
        options.logger.error(
          { error: error instanceof Error ? error.message : String(error) },
          'message store: retention sweep failed; retrying on the next interval',
        );
      }
    }
  })();
  return {
    async stop() {
      abort.abort();
      await loop;
    },
  };
}
