import path from 'node:path';
import { consoleLogger, silentLogger, topologyFromPlatform } from '@nimbus/core';
import { InProcessStateChangeNotifier } from '@nimbus/message-store';
import { createSqlMessageStore } from '@nimbus/message-store-sql';
import { createResolver } from '@nimbus/resolver';
import { createSqlTransport } from '@nimbus/transport-sql';
import { livePlatform } from './live-stack.js';

export const testLogger = process.env.NIMBUS_TEST_LOG === '1' ? consoleLogger : silentLogger;

/**
 * The bus of the in-process stacks as `nimbus dev` keeps it: the SQL message store and the SQL transport in
 * separate SQLite files of `dir` (the live platform's topology applied) and a running Resolver. Each part's
 * stop is pushed onto `stops`, in start order.
 */
export async function startSqliteBus(
  dir: string,
  storeEnv: Record<string, string>,
  stops: (() => Promise<void>)[],
) {
  // The store is the one emitter of state changes; the WebApp listens to the same notifier.
  const notifier = new InProcessStateChangeNotifier({ logger: silentLogger });
  const store = await createSqlMessageStore({
    dialect: 'sqlite',
    filename: path.join(dir, 'store.db'),
    env: storeEnv,
    retentionSweep: false,
    notifier,
  });
  stops.push(() => store.close());
  const transport = await createSqlTransport({ dialect: 'sqlite', path: path.join(dir, 'transport.db') });
  stops.push(() => transport.close());
  await transport.applyTopology(topologyFromPlatform(livePlatform));
  const resolver = createResolver({ transport, store, logger: testLogger });
  await resolver.start();
  stops.push(() => resolver.stop());
  return { store, transport, notifier };
}
