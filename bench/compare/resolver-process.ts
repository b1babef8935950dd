// The Resolver as its own OS process for the comparison bench (what `nimbus resolver` runs), over the bus the
// parent describes in BENCH_BUS_CONFIG; prints `ready`, and its statement counts when it is stopped.
import { silentLogger } from '@nimbus/core';
import { createSqlMessageStore, createSqlStateChangeNotifier } from '@nimbus/message-store-sql';
import { createResolver } from '@nimbus/resolver';
import { type BusConfig, openBusTransport } from './nimbus.js';
import { countStatements, statementReport } from './stats.js';

const config = JSON.parse(process.env.BENCH_BUS_CONFIG ?? '{}') as BusConfig;
const events = Number(process.env.BENCH_REPORT_EVENTS ?? 0);
if (process.env.BENCH_COUNT_STATEMENTS === '1') countStatements();
const notifier = await createSqlStateChangeNotifier({ ...config.store, env: {}, logger: silentLogger });
const store = await createSqlMessageStore({
  ...config.store,
  env: {},
  retentionSweep: false,
  logger: silentLogger,
  notifier,
});
const bus = await openBusTransport(config);
// As `nimbus` does: co-located, the Resolver receives little, so it holds 8 sessions instead of 128.
const resolver = createResolver({
  transport: bus.transport,
  store,
  logger: silentLogger,
  ...(config.colocated ? { options: { maxConcurrentSessions: 8 } } : {}),
});
await resolver.start();
process.stdout.write('ready\n');
process.once('SIGTERM', () => {
  void (async () => {
    const report = events > 0 ? statementReport(events) : '';
    await resolver.stop({ timeoutMs: 2_000 });
    await bus.close();
    await notifier.stop();
    await store.close();
    if (report) process.stdout.write(`Resolver process: ${report}\n`);
    process.exit(0);
  })();
});
