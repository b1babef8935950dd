import { describe, expect, it } from 'vitest';
import { probeReadiness, readinessAnswer, serviceReadiness } from '../../src/index.js';

const topology = async () => ({ endpoints: [], routes: [] });

describe('probeReadiness (the one readiness probe)', () => {
  it('is ready when the probe answers, names what and why when it fails, and never throws', async () => {
    expect(await probeReadiness('db', async () => 1)).toEqual({ ready: true });
    expect(
      await probeReadiness('db', async () => {
        throw new Error('connect ECONNREFUSED');
      }),
    ).toEqual({ ready: false, reason: 'db: connect ECONNREFUSED' });
    // A probe that throws synchronously is reported the same way.
    expect(
      await probeReadiness('db', () => {
        throw new Error('sync');
      }),
    ).toEqual({ ready: false, reason: 'db: sync' });
  });

  it('uses the caller’s error description (SQL callers pass describeDriverError)', async () => {
    const readiness = await probeReadiness(
      'SQL transport',
      async () => {
        throw Object.assign(new Error('gone'), { code: '57P01' });
      },
      { describeError: (error) => `unavailable (${(error as { code: string }).code})` },
    );
    expect(readiness).toEqual({ ready: false, reason: 'SQL transport: unavailable (57P01)' });
  });

  it('reports a hanging dependency after its deadline', async () => {
    const started = Date.now();
    const readiness = await probeReadiness('db', () => new Promise(() => {}), { timeoutMs: 50 });
    expect(readiness).toEqual({ ready: false, reason: 'db: no answer within 50 ms' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe('serviceReadiness (WebApp /readyz and the Resolver health port)', () => {
  it('asks a component’s own checkReadiness() first, else a cheap read', async () => {
    const store = {
      getHeartbeatSettings: async () => {
        throw new Error('must not be read: the store has its own check');
      },
      checkReadiness: async () => ({ ready: false, reason: 'schema out of date' }),
    };
    const transport = { getTopology: topology };
    const report = await serviceReadiness({ store, transport });
    expect(report).toEqual({
      ready: false,
      checks: {
        store: { ready: false, reason: 'store: schema out of date' },
        transport: { ready: true },
      },
    });
    expect(readinessAnswer(report)).toEqual({
      statusCode: 503,
      body: { status: 'not ready', ...report },
    });
  });

  it('adds live updates for a notifier that says whether it listens, and only then', async () => {
    const store = { getHeartbeatSettings: async () => ({}) };
    const transport = { getTopology: topology };
    const notifier = { listening: false };
    const down = await serviceReadiness({ store, transport, liveUpdates: notifier });
    expect(down.checks.liveUpdates).toEqual({
      ready: false,
      reason: 'live updates: the state-change listener is reconnecting',
    });
    notifier.listening = true;
    expect(readinessAnswer(await serviceReadiness({ store, transport, liveUpdates: notifier }))).toEqual({
      statusCode: 200,
      body: {
        status: 'ready',
        ready: true,
        checks: { store: { ready: true }, transport: { ready: true }, liveUpdates: { ready: true } },
      },
    });
    // An in-process notifier has no `listening`: nothing to check.
    expect(Object.keys((await serviceReadiness({ store, transport, liveUpdates: {} })).checks)).toEqual([
      'store',
      'transport',
    ]);
  });
});
