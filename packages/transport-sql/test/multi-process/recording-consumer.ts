// What a consumer process of the multi-process kill tests runs, on any transport: a SessionProcessor on one
// input that appends a line per handler start and finish to its record file (synchronously, so a SIGKILL loses
// nothing that was written). The SQL transports' consumer.ts and Service Bus's use it.
import { appendFileSync } from 'node:fs';
import {
  type ReceivedMessage,
  type SessionHandle,
  SessionProcessor,
  silentLogger,
  type Transport,
} from '@nimbus/core';
import { watchLease } from './lease-watch.js';

export const requiredEnv = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`consumer: environment variable ${name} is required`);
  return value;
};

/** Starts the processor on `Erp`, records `ready`, and stops it and closes the transport on SIGTERM. */
export async function runRecordingConsumer(transport: Transport & { close(): Promise<void> }): Promise<void> {
  const recordFile = requiredEnv('RECORD_FILE');
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
          // The lease first: the test kills this process as soon as it reads 'hanging'.
          watchLease(session, record);
          record({ kind: 'hanging', ...entry });
          await new Promise(() => undefined);
        }
        await new Promise((resolve) => setTimeout(resolve, 2));
        // Recorded before settling: a kill between the two shows up as a redelivery, never as a gap.
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
}
