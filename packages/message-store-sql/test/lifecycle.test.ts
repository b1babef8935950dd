import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger, systemClock } from '@nimbus/core';
import { describeLifecycleConformance, holdingCalls } from '@nimbus/core/conformance';
import { createRetentionSweeper, createSqlMessageStore } from '../src/index.js';
import { createSqliteStateChangeNotifier } from '../src/notify/sqlite-state-change-notifier.js';

// A notifier has no work of its own to hold (it sends and hears changes): the suite runs it idle.
describeLifecycleConformance('SQLite state-change notifier', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'nimbus-notify-lifecycle-'));
  return {
    component: createSqliteStateChangeNotifier({
      filename: join(dir, 'store-changes.db'),
      logger: silentLogger,
      pollMs: 25,
    }),
    signalsWork: false,
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
});

// The held work is the next sweep of a real SQLite store (every 20 ms here; a sweep takes no signal).
describeLifecycleConformance('RetentionSweeper (SQLite)', async (work) => {
  const dir = mkdtempSync(join(tmpdir(), 'nimbus-sweeper-lifecycle-'));
  const store = await createSqlMessageStore({
    dialect: 'sqlite',
    filename: join(dir, 'store.db'),
    retentionSweep: false,
    logger: silentLogger,
    env: {},
  });
  const sweeps = holdingCalls(store, ['sweepExpired'], () => work());
  return {
    component: createRetentionSweeper({
      sweep: () => sweeps.proxy.sweepExpired(),
      intervalMs: 20,
      clock: systemClock,
      logger: silentLogger,
    }),
    signalsWork: false,
    trigger: async () => sweeps.arm(),
    cleanup: async () => {
      await store.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
