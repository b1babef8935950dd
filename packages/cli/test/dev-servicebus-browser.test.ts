import { describe, expect, it } from 'vitest';
import { devInBrowser, operatorFixesBlockedSession } from './support/dev-browser-scenario.js';
import { browserAvailable } from './support/operator-browser.js';

const RUNS = browserAvailable('nimbus dev --transport servicebus browser test');

/**
 * The README scenario on Azure Service Bus: `nimbus dev --transport servicebus` without a namespace starts
 * nimbus-sb-emulator in its process, provisions the sample topology through the administration client and runs
 * the adapters, the Resolver and the WebApp on it (emulator-verified).
 */
describe.runIf(RUNS)('nimbus dev --transport servicebus in a browser (in-process emulator)', () => {
  const running = devInBrowser(['--transport', 'servicebus'], 'nimbus-dev-servicebus-');

  it('says it uses the in-process emulator and provisions the sample topology on it', () => {
    const { dev } = running();
    expect(dev.stdout).toContain('transport: servicebus');
    expect(dev.stdout).toMatch(/using nimbus-sb-emulator on 127\.0\.0\.1:\d+/);
    expect(dev.stdout).toMatch(/topology: .*Erp/);
  });

  operatorFixesBlockedSession(running);

  it('stops cleanly, stopping the emulator with it', async () => {
    const { dev } = running();
    expect(await dev.stop()).toBe(0);
    expect(dev.stdout).toContain('NimBus dev stopped.');
  });
});
