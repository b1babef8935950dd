import type { Clock, Logger, ServiceLifecycle } from '@nimbus/core';
import { loopLifecycle, NimBusError, NimBusErrorCode, withLifecycle } from '@nimbus/core';
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

/**
 * On the one lifecycle (`ServiceLifecycle`): `stop({ timeoutMs })` ends the loop and lets a sweep in progress finish
 * (within `timeoutMs`); `abort()` does not wait for it. A stopped sweeper is not started again.
 */
export type RetentionSweeper = ServiceLifecycle;

/**
 * Sweeps expired rows every `intervalMs` once started, until stopped. A failed sweep is logged and retried on the
 * next tick: a database hiccup must never end the job.
 */
export function createRetentionSweeper(options: RetentionSweeperOptions): RetentionSweeper {
  const intervalMs = options.intervalMs ?? DEFAULT_SWEEP_INTERVAL_MS;
  if (!Number.isInteger(intervalMs) || intervalMs <= 0) {
    throw new NimBusError(
      NimBusErrorCode.InvalidOption,
      `Invalid store option 'retentionSweep.intervalMs': ${intervalMs}. Expected a positive whole number of milliseconds.`,
    );
  }
  const sweepOnce = async () => {
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
  };
  const lifecycle = loopLifecycle(
    async ({ stopping }) => {
      while (!stopping.aborted) {
        await options.clock.sleep(intervalMs, stopping);
        if (!stopping.aborted) await sweepOnce();
      }
    },
    { name: 'the retention sweeper' },
  );
  return withLifecycle({}, lifecycle);
}

/** `createRetentionSweeper` already started (its start cannot fail: it only begins the loop). */
export function startRetentionSweeper(options: RetentionSweeperOptions): RetentionSweeper {
  const sweeper = createRetentionSweeper(options);
  void sweeper.start();
  return sweeper;
}
