import { memoryTransportFixture } from '@nimbus/testing/e2e';

/** The memory transport every store run uses, on a manual clock (starting where the scenarios were written). */
export const onMemoryTransport = async () => memoryTransportFixture(Date.UTC(2026, 5, 1, 8));
