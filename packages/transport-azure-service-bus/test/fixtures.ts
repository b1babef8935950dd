import { type RunningEmulator, startEmulator } from '@nimbus/servicebus-emulator';
import { ServiceBusTransport, type ServiceBusTransportOptions } from '../src/index.js';

export interface EmulatedTransport {
  readonly emulator: RunningEmulator;
  readonly transport: ServiceBusTransport;
  cleanup(): Promise<void>;
}

/** A fresh emulator on an ephemeral port and a transport on it (the admin client trusts the emulator's CA). */
export async function emulatedTransport(
  options: Partial<ServiceBusTransportOptions> = {},
): Promise<EmulatedTransport> {
  const emulator = await startEmulator({ port: 0 });
  const transport = new ServiceBusTransport({
    connectionString: emulator.connectionString,
    managementCa: emulator.caPem!,
    lockDurationMs: 1_500,
    maxDeliveryCount: 3,
    operationTimeoutMs: 10_000,
    acceptPollMs: 250,
    ...options,
  });
  return {
    emulator,
    transport,
    async cleanup() {
      await transport.close();
      await emulator.stop();
    },
  };
}
