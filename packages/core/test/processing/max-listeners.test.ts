import { afterEach, describe, expect, it } from 'vitest';
import { SessionProcessor, silentLogger } from '../../src/index.js';
import { INPUT, memorySetup, settleTicks } from './processor-fixtures.js';

const warnings: Error[] = [];
const onWarning = (warning: Error) => void warnings.push(warning);
afterEach(() => {
  process.off('warning', onWarning);
});

describe('SessionProcessor: one stop signal shared by many accept loops', () => {
  it('32 concurrent accept loops print no MaxListenersExceededWarning', async () => {
    process.on('warning', onWarning);
    const { clock, transport } = await memorySetup();
    const processor = new SessionProcessor({
      transport,
      input: INPUT,
      handler: { handleMessage: async () => undefined },
      maxConcurrentSessions: 32,
      acceptWaitMs: 60_000,
      clock,
      logger: silentLogger,
    });
    await processor.start();
    await settleTicks();
    await processor.stop();
    await transport.close();
    await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
  });
});
