import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '@nimbus/core';
import { describeLifecycleConformance } from '@nimbus/core/conformance';
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
