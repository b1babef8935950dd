// The worker's module must exist before `@azure/functions` registers its first function.

import { createRequire } from 'node:module';
import { app } from '@azure/functions';
import { type RunningEmulator, startEmulator } from '@nimbus/servicebus-emulator';
import { describeEngineEndToEnd, type EndToEndFixture } from '@nimbus/testing/e2e';
import { ServiceBusTransport } from '@nimbus/transport-azure-service-bus';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FunctionsDriver } from './support/functions-driver.js';
import { settlementCalls, startSettlementServer } from './support/functions-host.js';
import { registrations, workerLog } from './support/functions-worker.js';

createRequire(import.meta.url)('@azure/functions-extensions-servicebus');

// Emulator-verified, Functions host not run: the engine end-to-end suite with every endpoint message delivered
// through a session trigger registered with the real @azure/functions app, invoked through its worker model
// with the real Service Bus SDK binding, which settles over the host's settlement channel played here.
let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  await startSettlementServer();
});

afterAll(async () => {
  await emulator?.stop();
});

async function functionsFixture(): Promise<EndToEndFixture> {
  const transport = new ServiceBusTransport({
    connectionString: emulator.connectionString,
    managementCa: emulator.caPem!,
    operationTimeoutMs: 10_000,
    acceptPollMs: 50,
    receiveSliceMs: 50,
  });
  const driver = new FunctionsDriver(app, emulator.connectionString, transport, 50);
  return {
    transport,
    clock: null,
    waitMs: 50,
    scheduleLagMs: 100,
    drainInput: driver.drainInput,
    async cleanup() {
      await driver.close();
      for (const topic of [...emulator.namespace.topics.values()]) emulator.namespace.deleteTopic(topic.name);
    },
  };
}

describeEngineEndToEnd('azure functions (emulator, SDK binding)', functionsFixture);

describe('the Functions registration', () => {
  it('registered session-enabled SDK-binding topic triggers with autoComplete off, and settled through the binding', () => {
    const triggers = [...registrations.values()].flatMap((r) => Object.values(r.metadata.bindings));
    expect(triggers.length).toBeGreaterThan(0);
    for (const trigger of triggers as Record<string, unknown>[]) {
      expect(trigger).toMatchObject({
        type: 'serviceBusTrigger',
        direction: 'in',
        isSessionsEnabled: true,
        sdkBinding: true,
        autoCompleteMessages: false,
        connection: 'NimbusServiceBus',
      });
    }
    expect(settlementCalls).toContain('complete');
    expect(settlementCalls).toContain('deadletter');
    expect(workerLog.filter((line) => line.startsWith('error'))).toEqual([]);
  });
});
