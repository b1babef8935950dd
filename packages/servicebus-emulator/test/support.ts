import { ServiceBusClient } from '@azure/service-bus';
import { afterEach, beforeEach } from 'vitest';
import { type RunningEmulator, startEmulator } from '../src/index.js';

export interface EmulatorContext {
  emulator: RunningEmulator;
  client: ServiceBusClient;
}

/** Starts an emulator on an ephemeral port and an unmodified SDK client for each test. */
export function useEmulator(): EmulatorContext {
  const context = {} as EmulatorContext;
  beforeEach(async () => {
    context.emulator = await startEmulator({ port: 0 });
    context.client = new ServiceBusClient(context.emulator.connectionString, {
      retryOptions: { maxRetries: 1, retryDelayInMs: 50, timeoutInMs: 5_000 },
    });
  });
  afterEach(async () => {
    await context.client.close();
    await context.emulator.stop();
  });
  return context;
}
