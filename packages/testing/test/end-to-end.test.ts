import { describeEngineEndToEnd, memoryTransportFixture } from '../src/e2e/index.js';

// The reference run: the in-memory transport on a manual clock, so no case is skipped.
describeEngineEndToEnd('memory', async () => memoryTransportFixture());
