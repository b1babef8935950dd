import { silentLogger } from '@nimbus/core';
import { describeLifecycleConformance } from '@nimbus/core/conformance';
import { createTemporaryDatabase, shouldRunPostgresSuite } from '@nimbus/testing/postgres';
import { describe } from 'vitest';
import { createPostgresStateChangeNotifier } from '../src/notify/postgres-state-change-notifier.js';

describe.runIf(await shouldRunPostgresSuite('message-store-sql notifier lifecycle (PostgreSQL)'))(
  'PostgreSQL state-change notifier on the one lifecycle',
  () => {
    // A notifier has no work of its own to hold (it sends and hears changes): the suite runs it idle.
    describeLifecycleConformance('PostgreSQL state-change notifier', async () => {
      const database = await createTemporaryDatabase('nimbus_notify_lifecycle');
      return {
        component: createPostgresStateChangeNotifier({
          connectionString: database.url,
          schema: 'nimbus',
          logger: silentLogger,
        }),
        signalsWork: false,
        cleanup: () => database.drop(),
      };
    });
  },
);
