export { DEFAULT_OPTIONS, MAX_BATCH_BYTES, type ServiceBusTransportOptions } from './options.js';
export { createServiceBusTransport, ServiceBusTransport } from './service-bus-transport.js';
export type { HeldSession } from './session-handle.js';
export { disableNagle } from './socket-tuning.js';
