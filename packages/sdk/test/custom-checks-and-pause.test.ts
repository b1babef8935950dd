import { MemoryInputControl, silentLogger, systemClock, type Transport } from '@nimbus/core';
import { describe, expect, it } from 'vitest';
import { CustomCheckRunner } from '../src/custom-checks.js';
import { createEndpointHost, createSubscriber, runCustomCheck } from '../src/index.js';
import { PauseWatch, pausableTransport } from '../src/pause-watch.js';
import { FakeTransport } from './fake-transport.js';
import { platform } from './fixtures.js';

class ControlledTransport extends FakeTransport {
  readonly control = new MemoryInputControl();
}

const host = (transport: Transport, customChecks: Parameters<typeof createEndpointHost>[0]['customChecks']) =>
  createEndpointHost({
    platform,
    endpoint: 'Billing',
    transport,
    subscriber: createSubscriber(),
    customChecks,
  });

describe('custom checks (SDK)', () => {
  it('turns a throw, a timeout and a malformed answer into unhealthy results that say why', async () => {
    const run = (check: Parameters<typeof runCustomCheck>[0]) => runCustomCheck(check, systemClock);
    expect(await run({ name: 'ok', run: () => ({ healthy: true }) })).toMatchObject({
      healthy: true,
      reason: null,
    });
    expect(
      await run({ name: 'down', run: async () => ({ healthy: false, reason: 'ERP 503' }) }),
    ).toMatchObject({
      healthy: false,
      reason: 'ERP 503',
    });
    expect(
      await run({
        name: 'throws',
        run: () => {
          throw new Error('ECONNREFUSED');
        },
      }),
    ).toMatchObject({ healthy: false, reason: 'check threw: ECONNREFUSED' });
    expect(await run({ name: 'slow', timeoutMs: 20, run: () => new Promise<never>(() => {}) })).toMatchObject(
      { healthy: false, reason: 'check timed out after 20 ms' },
    );
    expect(await run({ name: 'odd', run: () => ({}) as never })).toMatchObject({
      healthy: false,
      reason: 'check returned no { healthy: boolean } outcome',
    });
  });

  it('reports each result to the transport control state, per endpoint', async () => {
    const control = new MemoryInputControl();
    let healthy = true;
    const runner = new CustomCheckRunner(
      'Billing',
      [
        {
          name: 'ledger',
          intervalMs: 20,
          run: () => ({ healthy, reason: healthy ? undefined : 'ledger locked' }),
        },
      ],
      control,
      systemClock,
      silentLogger,
    );
    await runner.start();
    expect(await control.customChecks()).toMatchObject([
      { endpointId: 'Billing', name: 'ledger', healthy: true },
    ]);
    healthy = false;
    await expect
      .poll(async () => (await control.customChecks())[0]?.reason, { timeout: 2_000 })
      .toBe('ledger locked');
    runner.stop();
  });

  it('refuses bad registrations with a clear error, and a transport without control state', () => {
    const transport = new ControlledTransport();
    expect(() => host(transport, [{ name: '', run: () => ({ healthy: true }) }])).toThrow(/name of 1 to 200/);
    expect(() => host(transport, [{ name: 'x', run: 'no' as never }])).toThrow(/run\(\) function/);
    expect(() => host(transport, [{ name: 'x', intervalMs: 1, run: () => ({ healthy: true }) }])).toThrow(
      /intervalMs must be an integer of at least 10/,
    );
    const twice = { name: 'x', run: () => ({ healthy: true }) };
    expect(() => host(transport, [twice, twice])).toThrow(/already registered/);
    expect(() => host(new FakeTransport(), [twice])).toThrow(/needs a transport that keeps control state/);
    expect(host(transport, [twice])).toBeDefined();
  });
});

describe('pausing an input (SDK)', () => {
  it('takes no session while the flag is set, and takes them again within a poll of the resume', async () => {
    const control = new MemoryInputControl();
    let accepts = 0;
    const inner = Object.assign(new FakeTransport(), {
      acceptSession: async () => {
        accepts += 1;
        return null;
      },
    });
    const watch = new PauseWatch(control, 'Billing', 20, silentLogger);
    const transport = pausableTransport(inner, watch);
    await control.setPaused('billing', { paused: true, by: 'Ada' });
    await watch.start();
    expect(watch.paused).toBe(true);
    const waited = performance.now();
    expect(await transport.acceptSession('Billing', { waitMs: 100 })).toBeNull();
    expect(performance.now() - waited).toBeGreaterThanOrEqual(90);
    expect(accepts).toBe(0);
    // A resume wakes a waiting accept before its wait ends.
    const pending = transport.acceptSession('Billing', { waitMs: 10_000 });
    await control.setPaused('Billing', { paused: false, by: 'Ada' });
    await pending;
    expect(accepts).toBe(1);
    watch.stop();
  });

  it('holds acceptSessions too while the flag is set (a processor leasing several at once does not get around it)', async () => {
    const control = new MemoryInputControl();
    const asked: number[] = [];
    const inner = Object.assign(new FakeTransport(), {
      acceptSessions: async ({ max }: { max: number }) => {
        asked.push(max);
        return [];
      },
    });
    const watch = new PauseWatch(control, 'Billing', 20, silentLogger);
    const transport = pausableTransport(inner, watch);
    await control.setPaused('Billing', { paused: true, by: 'Ada' });
    await watch.start();
    expect(await transport.acceptSessions!({ input: 'Billing', max: 4, waitMs: 60 })).toEqual([]);
    expect(asked).toEqual([]);
    await control.setPaused('Billing', { paused: false, by: 'Ada' });
    await transport.acceptSessions!({ input: 'Billing', max: 4, waitMs: 10_000 });
    expect(asked).toEqual([4]);
    expect(pausableTransport(new FakeTransport(), watch).acceptSessions).toBeUndefined();
    watch.stop();
  });

  it('a database outage keeps the last known state and is logged once when it begins and once when it ends', async () => {
    const control = new MemoryInputControl();
    await control.setPaused('Billing', { paused: true, by: 'Ada' });
    let down = false;
    const flaky: typeof control = Object.assign(Object.create(control), {
      pausedInputs: () => (down ? Promise.reject(new Error('ECONNREFUSED')) : control.pausedInputs()),
    });
    const lines: { level: string; message: string }[] = [];
    const logger = {
      ...silentLogger,
      warn: (_: unknown, message: string) => lines.push({ level: 'warn', message }),
      info: (_: unknown, message: string) => lines.push({ level: 'info', message }),
    };
    const watch = new PauseWatch(flaky, 'Billing', 60_000, logger);
    await watch.start();
    down = true;
    for (let i = 0; i < 25; i++) await watch.refresh();
    expect(watch.paused).toBe(true);
    down = false;
    await watch.refresh();
    watch.stop();
    expect(lines.filter((l) => l.level === 'warn')).toHaveLength(1);
    expect(lines.map((l) => l.message)).toEqual([
      'Input paused',
      expect.stringContaining('Could not read whether the input is paused'),
      expect.stringContaining("The input's pause flag is readable again after"),
    ]);
  });
});
