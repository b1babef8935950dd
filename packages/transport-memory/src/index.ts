export { MAX_DELIVERY_COUNT_REASON } from './memory-core.js';
export { createMemoryTransport, MemoryTransport, type MemoryTransportOptions } from './memory-transport.js';
