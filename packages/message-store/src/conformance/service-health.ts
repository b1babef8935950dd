import { describe, expect, it } from 'vitest';
import type { ServiceHealthStore } from '../contracts/service-health-store.js';
import { HeartbeatStatus as HS } from '../enums.js';
import type { ConformanceStoreFactory } from './factory.js';
import { MINUTE } from './fixtures.js';
import { storeOpener } from './harness.js';

export function describeServiceHealthStoreConformance(
  providerName: string,
  factory: ConformanceStoreFactory<ServiceHealthStore>,
): void {
  describe(`ServiceHealthStore conformance [${providerName}]`, () => {
    const open = storeOpener(factory);
    const row = async (store: ServiceHealthStore, serviceId: string) =>
      (await store.getServiceHealth()).find((r) => r.serviceId === serviceId);

    it('tryClaimServiceProbe creates the row as Unknown on first use', async () => {
      const { store, clock, id } = await open();
      expect(
        await store.tryClaimServiceProbe({
          serviceId: id('svc'),
          dueBefore: new Date(clock.now() - MINUTE),
          probeMessageId: 'probe-1',
        }),
      ).toBe(true);
      expect(await row(store, id('svc'))).toMatchObject({
        status: HS.Unknown,
        lastProbeMessageId: 'probe-1',
        lastProbeSentUtc: new Date(clock.now()),
      });
    });

    it('tryClaimServiceProbe lets exactly one caller send per interval', async () => {
      const { store, clock, id } = await open();
      const svc = id('svc');
      expect(
        await store.tryClaimServiceProbe({
          serviceId: svc,
          dueBefore: new Date(clock.now() + MINUTE),
          probeMessageId: 'probe-1',
        }),
      ).toBe(true);
      expect(
        await store.tryClaimServiceProbe({
          serviceId: svc,
          dueBefore: new Date(clock.now() - MINUTE),
          probeMessageId: 'probe-2',
        }),
      ).toBe(false);
      expect((await row(store, svc))?.lastProbeMessageId).toBe('probe-1');
      clock.advance(MINUTE);
      expect(
        await store.tryClaimServiceProbe({
          serviceId: svc,
          dueBefore: new Date(clock.now()),
          probeMessageId: 'probe-3',
        }),
      ).toBe(true);
      expect((await row(store, svc))?.lastProbeMessageId).toBe('probe-3');
    });

    it('setServiceHealth settles the probe, clears the claim and keeps lastProbeSentUtc', async () => {
      const { store, clock, id } = await open();
      const svc = id('svc');
      await store.tryClaimServiceProbe({
        serviceId: svc,
        dueBefore: new Date(clock.now()),
        probeMessageId: 'probe-1',
      });
      const sent = (await row(store, svc))?.lastProbeSentUtc;
      clock.advance(1000);
      const seen = new Date(clock.now());
      await store.setServiceHealth({
        serviceId: svc,
        status: HS.On,
        version: '1.2.3',
        lastSeenUtc: seen,
        roundTripMs: 42,
        lastProbeMessageId: 'ignored',
        lastProbeSentUtc: null,
      });
      expect(await row(store, svc)).toMatchObject({
        status: HS.On,
        version: '1.2.3',
        lastSeenUtc: seen,
        roundTripMs: 42,
        lastProbeMessageId: null,
        lastProbeSentUtc: sent,
      });
    });

    it('setServiceHealth creates the row when an answer arrives before any claim', async () => {
      const { store, clock, id } = await open();
      await store.setServiceHealth({
        serviceId: id('svc'),
        status: HS.On,
        version: null,
        lastSeenUtc: new Date(clock.now()),
        roundTripMs: null,
        lastProbeMessageId: null,
        lastProbeSentUtc: null,
      });
      expect(await row(store, id('svc'))).toMatchObject({
        status: HS.On,
        lastProbeMessageId: null,
        lastProbeSentUtc: null,
      });
    });

    it('a blank service id is rejected', async () => {
      const { store, clock } = await open();
      await expect(
        store.tryClaimServiceProbe({ serviceId: ' ', dueBefore: new Date(clock.now()), probeMessageId: 'p' }),
      ).rejects.toMatchObject({
        code: 'InvalidArgument',
      });
    });

    it('sweepTimedOutServiceProbes settles only probes sent at or before the cutoff, once', async () => {
      const { store, clock, id } = await open();
      const svc = id('svc');
      await store.tryClaimServiceProbe({
        serviceId: svc,
        dueBefore: new Date(clock.now()),
        probeMessageId: 'probe-1',
      });
      expect(await store.sweepTimedOutServiceProbes(new Date(clock.now() - 5 * MINUTE))).not.toContain(svc);
      expect(await store.sweepTimedOutServiceProbes(new Date(clock.now() + 5 * MINUTE))).toContain(svc);
      expect(await row(store, svc)).toMatchObject({ status: HS.Off, lastProbeMessageId: null });
      expect(await store.sweepTimedOutServiceProbes(new Date(clock.now() + 5 * MINUTE))).not.toContain(svc);
    });

    it('getServiceHealth orders by service id', async () => {
      const { store, clock, id } = await open();
      await store.tryClaimServiceProbe({
        serviceId: id('svc-b'),
        dueBefore: new Date(clock.now()),
        probeMessageId: 'p',
      });
      await store.tryClaimServiceProbe({
        serviceId: id('svc-a'),
        dueBefore: new Date(clock.now()),
        probeMessageId: 'p',
      });
      const ids = (await store.getServiceHealth())
        .map((r) => r.serviceId)
        .filter((s) => s.startsWith(id('')));
      expect(ids).toEqual([id('svc-a'), id('svc-b')]);
    });
  });
}
