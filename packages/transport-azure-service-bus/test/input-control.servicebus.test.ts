import { ServiceBusAdministrationClient } from '@azure/service-bus';
import { describeInputControlConformance } from '@nimbus/core/conformance';
import { type RunningEmulator, startEmulator } from '@nimbus/servicebus-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTROL_QUEUE } from '../src/control-documents.js';
import { ServiceBusTransport } from '../src/index.js';

// Emulator-verified: the control state in the namespace's `nimbus.input-control` queue, through the unmodified
// @azure/service-bus client, each "process" a transport of its own (its own AMQP connection).
let emulator: RunningEmulator;
let admin: ServiceBusAdministrationClient;
const transports: ServiceBusTransport[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  admin = new ServiceBusAdministrationClient(emulator.connectionString, {
    tlsOptions: { ca: emulator.caPem! },
  });
});
afterAll(async () => {
  for (const transport of transports) await transport.close();
  await emulator?.stop();
});

const openTransport = (): ServiceBusTransport => {
  const transport = new ServiceBusTransport({
    connectionString: emulator.connectionString,
    managementCa: emulator.caPem!,
  });
  transports.push(transport);
  return transport;
};

describeInputControlConformance('azure service bus (emulator)', async () => {
  if (await admin.queueExists(CONTROL_QUEUE)) await admin.deleteQueue(CONTROL_QUEUE);
  return { control: openTransport().control, reopen: async () => openTransport().control };
});

describe('Service Bus control queue', () => {
  it('reads no state before the queue exists, creates it on the first change, keeps one version per document', async () => {
    if (await admin.queueExists(CONTROL_QUEUE)) await admin.deleteQueue(CONTROL_QUEUE);
    const control = openTransport().control;
    expect(await control.inputStates()).toEqual([]);
    expect(await admin.queueExists(CONTROL_QUEUE)).toBe(false);
    for (const paused of [true, false, true]) await control.setPaused('Erp', { paused, by: 'Ada' });
    await control.setThresholds('Crm', { maxBacklog: 1, maxCriticalTimeMs: null });
    const queue = await admin.getQueue(CONTROL_QUEUE);
    expect(queue.requiresDuplicateDetection).toBe(true);
    // Superseded versions are removed: what is left is the newest version of each of the two documents.
    const runtime = await admin.getQueueRuntimeProperties(CONTROL_QUEUE);
    expect(runtime.totalMessageCount).toBe(2);
    expect([...(await openTransport().control.pausedInputs())]).toEqual(['Erp']);
  });

  it('applyTopology provisions the control queue (hosts then need no management rights to report)', async () => {
    if (await admin.queueExists(CONTROL_QUEUE)) await admin.deleteQueue(CONTROL_QUEUE);
    await openTransport().applyTopology({ endpoints: ['Erp'], routes: [] });
    expect(await admin.queueExists(CONTROL_QUEUE)).toBe(true);
    expect((await openTransport().getTopology()).endpoints).toEqual(['Erp']);
  });
});
