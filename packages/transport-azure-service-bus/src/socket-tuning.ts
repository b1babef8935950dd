import type { ServiceBusClient } from '@azure/service-bus';

interface AmqpConnectionView {
  on?(event: string, listener: () => void): void;
  _connection?: { socket?: { setNoDelay?(noDelay: boolean): void } };
}

/**
 * Turns Nagle off on the SDK's AMQP socket. The SDK leaves it on, so a `$management` round trip (peek, schedule,
 * session state, lock renewal) waits ~40 ms for a delayed ACK; measured against the emulator, ten peeks take
 * 470 ms with it and 15 ms without. This reaches into the client's internals, so it does nothing when they differ.
 */
export function disableNagle(client: ServiceBusClient): void {
  const context = (client as unknown as { _connectionContext?: { connection?: AmqpConnectionView } })
    ._connectionContext;
  const apply = () => context?.connection?._connection?.socket?.setNoDelay?.(true);
  context?.connection?.on?.('connection_open', apply);
  apply();
}
