// Kept for callers that imported it from here; the reason is shared by every transport.
export { MAX_DELIVERY_COUNT_REASON } from '@nimbus/core';
export { createMemoryTransport, MemoryTransport, type MemoryTransportOptions } from './memory-transport.js';
