import { type RunningEmulator, startEmulator } from '@nimbus/servicebus-emulator';
import { ServiceBusTransport, type ServiceBusTransportOptions } from '../src/index.js';

export interface EmulatedTransport {
  readonly emulator: RunningEmulator;
  readonly transport: ServiceBusTransport;
  cleanup(): Promise<void>;
}

/**
 * A fresh emulator on an ephemeral port and a transport on it (the admin client trusts the emulator's CA).
 * The suites use 1.5 s locks to see lock expiry quickly; Service Bus's minimum is 5 s, so the emulator is
 * told to accept shorter ones.
 */
export async function emulatedTransport(
  options: Partial<ServiceBusTransportOptions> = {},
): Promise<EmulatedTransport> {
  const emulator = await startEmulator({ port: 0, minLockDurationMs: 1_000 });
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
