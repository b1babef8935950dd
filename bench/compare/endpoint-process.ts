// The endpoint (the real engine, no-op handler) as its own OS process for the comparison bench, over the bus the
// parent describes in BENCH_BUS_CONFIG; prints `ready`, and its statement counts when it is stopped.
import { type BusConfig, openBusTransport, startEndpoint } from './nimbus.js';
import { countStatements, resetStatements, statementReport } from './stats.js';

const config = JSON.parse(process.env.BENCH_BUS_CONFIG ?? '{}') as BusConfig;
const events = Number(process.env.BENCH_REPORT_EVENTS ?? 0);
const sessions = process.env.BENCH_ENDPOINT_SESSIONS;
if (process.env.BENCH_COUNT_STATEMENTS === '1') countStatements();
const bus = await openBusTransport(config);
const processor = startEndpoint(
  bus.transport,
  sessions ? { maxConcurrentSessions: Number(sessions) } : {},
  {},
  () => undefined,
);
await processor.start();
resetStatements();
process.stdout.write('ready\n');
process.once('SIGTERM', () => {
  void (async () => {
    const report = events > 0 ? statementReport(events) : '';
    await processor.stop();
    await bus.close();
    if (report) process.stdout.write(`endpoint process: ${report}\n`);
    process.exit(0);
  })();
});
