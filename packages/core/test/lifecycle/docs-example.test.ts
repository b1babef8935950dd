import { describe, expect, it } from 'vitest';
import { describeLifecycleConformance } from '../../src/conformance/index.js';
import { loopLifecycle, systemClock, withLifecycle } from '../../src/index.js';

// docs/architecture.md "One lifecycle": a long-running component of your own, on the one lifecycle.
// --- docs example start
function createPoller(poll: (signal: AbortSignal) => Promise<void>, everyMs = 1_000) {
  const lifecycle = loopLifecycle(
    async ({ stopping, abandon }) => {
      while (!stopping.aborted) {
        await poll(abandon); // stop() waits for this pass; its deadline (or abort()) aborts `abandon`
        await systemClock.sleep(everyMs, stopping);
      }
    },
    { name: 'the poller' },
  );
  return withLifecycle({}, lifecycle);
}

async function runPoller(): Promise<string[]> {
  const poller = createPoller(async () => undefined, 10);
  await poller.start(); // state: 'running'
  await poller.stop({ timeoutMs: 5_000 }); // drains the pass under way, then 'stopped'
  await poller.closed(); // resolves once stopped
  const restart = await poller.start().catch((error: { code: string }) => error.code); // 'Closed'
  const another = createPoller(async () => undefined, 10); // a stopped component is not restarted
  await another.start();
  await another.abort(); // stops now: the pass under way has its signal aborted
  return [poller.state, String(restart), another.state];
}
// --- docs example end

describe('docs/architecture.md one lifecycle example', () => {
  it('runs: drain, closed, no restart, abort', async () => {
    expect(await runPoller()).toEqual(['stopped', 'Closed', 'stopped']);
  });
});

// The same component through the reusable suite, as every long-running NimBus component's tests do.
describeLifecycleConformance('docs example poller', async (work) => {
  let armed = false;
  const component = createPoller(async (signal) => {
    if (!armed) return;
    armed = false;
    await work(signal);
  }, 10);
  return {
    component,
    signalsWork: true,
    trigger: async () => {
      armed = true;
    },
  };
});
