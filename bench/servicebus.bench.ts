// Service Bus throughput through nimbus-sb-emulator (in this process, loopback): NimBus end to end (publish →
// SessionProcessor → the real MessageEngine → complete, with the engine's Resolver-bound response published before
// each settlement) on (a) the memory transport and (b) the Service Bus transport, and their ratio: what the
// Service Bus wire (the SDK, AMQP and the emulator) costs. Emulator-verified figures, not Azure's.
// Run: npm run bench:servicebus   (env: BENCH_MESSAGES, BENCH_ROUNDS)
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

if (!process.execArgv.some((arg) => arg.includes('conditions=source'))) {
  const self = fileURLToPath(import.meta.url);
  const run = spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', self], {
    stdio: 'inherit',
  });
  process.exit(run.status ?? 1);
}

const { MessageEngine, MessageType, SessionProcessor, createEnvelope, encodeEnvelope, silentLogger, uuidv7 } =
  await import('@nimbus/core');
const { startEmulator } = await import('@nimbus/servicebus-emulator');
const { createMemoryTransport } = await import('@nimbus/transport-memory');
const { ServiceBusTransport } = await import('@nimbus/transport-azure-service-bus');

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SESSIONS = 50;
const WORKERS = 4;
const PUBLISH_BATCH = 50;
const EVENT_TYPE = 'CustomerChanged';
const BODY = 'x'.repeat(1024);

const errors = new Map<string, number>();
const rate = (count: number, ms: number) => Math.round((count / ms) * 1000);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function benchEvent(index: number) {
  return encodeEnvelope(
    createEnvelope({
      messageId: uuidv7(),
      to: EVENT_TYPE,
      sessionId: `s${index % SESSIONS}`,
      correlationId: `corr-${index}`,
      messageType: MessageType.EventRequest,
      content: {
        eventContent: { eventTypeId: EVENT_TYPE, eventJson: JSON.stringify({ index, data: BODY }) },
        errorContent: null,
      },
    }),
  );
}

type BenchTransport = import('@nimbus/core').Transport;

async function serviceBus(): Promise<{ transport: BenchTransport; stop: () => Promise<void> }> {
  const emulator = await startEmulator({ port: 0 });
  const transport = new ServiceBusTransport({
    connectionString: emulator.connectionString,
    managementCa: emulator.caPem!,
  });
  return { transport, stop: () => emulator.stop() };
}

async function memory(): Promise<{ transport: BenchTransport; stop: () => Promise<void> }> {
  return { transport: createMemoryTransport(), stop: async () => undefined };
}

async function endToEnd(open: typeof memory): Promise<number> {
  const { transport, stop } = await open();
  await transport.applyTopology({
    endpoints: ['Crm', 'Erp'],
    routes: [{ source: 'Crm', eventTypeId: EVENT_TYPE, target: 'Erp' }],
  });
  const engine = new MessageEngine({
    endpointId: 'Erp',
    handler: { handle: async () => undefined },
    logger: silentLogger,
  });
  let handled = 0;
  let finished!: () => void;
  const done = new Promise<void>((resolve) => {
    finished = resolve;
  });
  const processor = new SessionProcessor({
    transport,
    input: 'Erp',
    maxConcurrentSessions: WORKERS,
    receiveBatchSize: 20,
    sessionIdleTimeoutMs: 20,
    acceptWaitMs: 1000,
    logger: silentLogger,
    onError: (error, context) => {
      errors.set(
        `${context.source}: ${String(error).slice(0, 120)}`,
        (errors.get(`${context.source}: ${String(error).slice(0, 120)}`) ?? 0) + 1,
      );
    },
    handler: {
      onSessionAccepted: (session) => engine.onSessionAccepted(session),
      async handleMessage(session, message) {
        await engine.handleMessage(session, message);
        if (++handled === MESSAGES) finished();
      },
    },
  });
  const started = Date.now();
  await processor.start();
  for (let i = 0; i < MESSAGES; i += PUBLISH_BATCH) {
    const messages = Array.from({ length: Math.min(PUBLISH_BATCH, MESSAGES - i) }, (_, k) =>
      benchEvent(i + k),
    );
    await transport.publish([{ source: 'Crm', messages }]);
  }
  await done;
  const elapsed = Date.now() - started;
  await processor.stop();
  const resolverCopies = (await transport.counts('Resolver')).active;
  await transport.close();
  await stop();
  // At least one request copy and one response per message; a transport without atomic settle-and-publish may
  // repeat a response after a redelivery (the Resolver is idempotent per message id), so report the extra ones.
  if (resolverCopies < 2 * MESSAGES) {
    throw new Error(
      `expected ${2 * MESSAGES} Resolver copies (request + response per message), found ${resolverCopies}`,
    );
  }
  for (const [error, count] of errors) console.log(`  ${count}× ${error}`);
  errors.clear();
  if (resolverCopies > 2 * MESSAGES)
    console.log(`  ${resolverCopies - 2 * MESSAGES} responses repeated after redelivery`);
  return rate(MESSAGES, elapsed);
}

console.log(
  `servicebus bench (nimbus-sb-emulator in this process): ${MESSAGES} messages of 1 KiB over ${SESSIONS} sessions, ${WORKERS} concurrent sessions, publish batches of ${PUBLISH_BATCH}`,
);
const raw: number[] = [];
const nimbus: number[] = [];
for (let round = 1; round <= ROUNDS; round++) {
  raw.push(await endToEnd(memory));
  nimbus.push(await endToEnd(serviceBus));
  console.log(
    `round ${round}: (a) memory transport ${raw.at(-1)} msg/s, (b) Service Bus transport ${nimbus.at(-1)} msg/s`,
  );
}
const a = median(raw);
const b = median(nimbus);
console.log(`Service Bus (emulator) | (a) ${a} msg/s | (b) ${b} msg/s | ratio (b)/(a) ${(b / a).toFixed(2)}`);
