import { describe, expect, it } from 'vitest';
import { devInBrowser, operatorFixesBlockedSession } from './support/dev-browser-scenario.js';
import { browserAvailable } from './support/operator-browser.js';

const RUNS = browserAvailable('nimbus dev --store cosmos browser test');

/**
 * The README scenario on the Cosmos DB store: `nimbus dev --store cosmos` without an account starts the
 * local Cosmos server in its process; an operator signs in, finds the blocked sample session, fixes the
 * failed event's payload in the browser and resubmits; the parked updates then complete in order.
 */
describe.runIf(RUNS)('nimbus dev --store cosmos in a browser (local Cosmos server)', () => {
  const running = devInBrowser(['--store', 'cosmos'], 'nimbus-dev-cosmos-');

  it('says it uses the local Cosmos server', () => {
    const { dev } = running();
    expect(dev.stdout).toContain('NimBus dev starting (store: cosmos');
    expect(dev.stdout).toMatch(/using the local Cosmos server at https:\/\/127\.0\.0\.1:\d+\//);
  });

  operatorFixesBlockedSession(running);

  it('stops cleanly, stopping the local Cosmos server with it', async () => {
    const { dev } = running();
    expect(await dev.stop()).toBe(0);
    expect(dev.stdout).toContain('NimBus dev stopped.');
  });
});
