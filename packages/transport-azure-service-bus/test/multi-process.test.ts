import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, it } from 'vitest';
import { runTwoConsumers } from '../../transport-sql/test/multi-process/run-consumers.js';
import { emulatedTransport } from './fixtures.js';

const CONSUMER = fileURLToPath(new URL('./multi-process/consumer.ts', import.meta.url));

describe('Service Bus transport across processes (emulator)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'nimbus-sb-mp-'));
  afterAll(() =>
    process.env.KEEP_RECORDS ? console.log('records in', dir) : rmSync(dir, { recursive: true, force: true }),
  );

  it('two consumer processes share the namespace; a SIGKILLed consumer loses nothing and nothing is reordered', {
    timeout: 150_000,
  }, async () => {
    const { emulator, transport, cleanup } = await emulatedTransport({
      lockDurationMs: 2000,
      maxDeliveryCount: 5,
    });
    try {
      await runTwoConsumers(
        transport,
        {
          NIMBUS_SERVICEBUS_CONNECTION_STRING: emulator.connectionString,
          NIMBUS_SERVICEBUS_CA: emulator.caPem!,
        },
        [join(dir, 'a.jsonl'), join(dir, 'b.jsonl')],
        CONSUMER,
      );
    } finally {
      await cleanup();
    }
  });
});
