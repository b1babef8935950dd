// A consumer process for the multi-process kill test on Service Bus: the same SessionProcessor and record file
// as the SQL transports' consumer (packages/transport-sql/test/multi-process/consumer.ts), on this transport.
import { appendFileSync } from 'node:fs';
import { type ReceivedMessage, type SessionHandle, SessionProcessor, silentLogger } from '@nimbus/core';
import { watchLease } from '../../../transport-sql/test/multi-process/lease-watch.js';
import { ServiceBusTransport } from '../../src/index.js';

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`consumer: environment variable ${name} is required`);
  return value;
};

const recordFile = env('RECORD_FILE');
const transport = new ServiceBusTransport({
  connectionString: env('NIMBUS_SERVICEBUS_CONNECTION_STRING'),
  managementCa: env('NIMBUS_SERVICEBUS_CA'),
  lockDurationMs: 2000,
  maxDeliveryCount: 5,
});

const record = (entry: Record<string, unknown>) =>
  appendFileSync(recordFile, `${JSON.stringify({ pid: process.pid, at: Date.now(), ...entry })}\n`);

const processor = new SessionProcessor({
  transport,
  input: 'Erp',
  maxConcurrentSessions: 3,
  sessionIdleTimeoutMs: 100,
  acceptWaitMs: 300,
  errorBackoffMs: 50,
  maxErrorBackoffMs: 200,
  logger: silentLogger,
  onError: (error, context) =>
    record({
      kind: 'error',
      source: context.source,
      code: (error as { code?: string }).code,
      error: String(error),
    }),
  handler: {
    async handleMessage(session: SessionHandle, message: ReceivedMessage) {
      const { n, hang } = JSON.parse(message.body) as { n: number; hang?: boolean };
      const entry = {
        session: message.sessionId,
        n,
        seq: message.sequence,
        deliveryCount: message.deliveryCount,
      };
      record({ kind: 'start', ...entry });
      if (hang && message.deliveryCount === 1) {
        record({ kind: 'hanging', ...entry });
        watchLease(session, record);
        await new Promise(() => undefined);
      }
      await new Promise((resolve) => setTimeout(resolve, 2));
      record({ kind: 'finish', ...entry });
      await session.complete(message);
    },
  },
});

await processor.start();
record({ kind: 'ready' });
process.on('SIGTERM', () => {
  void processor.stop().then(
    () => transport.close().then(() => process.exit(0)),
    () => process.exit(1),
  );
});
