import { describe, expect, it } from 'vitest';
import type { EndpointMetadataStore } from '../contracts/endpoint-metadata-store.js';
import type { Heartbeat } from '../entities/heartbeat.js';
import { HeartbeatStatus as HS } from '../enums.js';
import type { ConformanceStoreFactory } from './factory.js';
import { MINUTE } from './fixtures.js';
import { storeOpener, T0 } from './harness.js';

const at = (offsetMs: number) => new Date(T0 + offsetMs);

function probe(
  messageId: string,
  status: HS,
  start: number,
  end?: number,
  sdkVersion: string | null = null,
): Heartbeat {
  const endTime = at(end ?? start);
  return {
    messageId,
    startTime: at(start),
    receivedTime: endTime,
    endTime,
    intervalSeconds: 300,
    sdkVersion,
    endpointHeartbeatStatus: status,
  };
}

const sampleMetadata = (endpointId: string) => ({
  endpointId,
  endpointOwner: 'Alice',
  endpointOwnerTeam: 'Team Blue',
  endpointOwnerEmail: 'owner@example.com',
  technicalContacts: [{ name: 'Ops', email: 'ops@example.com' }],
  subscriptionStatus: true,
});

export function describeEndpointMetadataStoreConformance(
  providerName: string,
  factory: ConformanceStoreFactory<EndpointMetadataStore>,
): void {
  describe(`EndpointMetadataStore conformance [${providerName}]`, () => {
    const open = storeOpener(factory);

    it('setEndpointMetadata then getEndpointMetadata round-trips', async () => {
      const { store, id } = await open();
      expect(await store.setEndpointMetadata(sampleMetadata(id('ep')))).toBe(true);
      expect(await store.getEndpointMetadata(id('ep'))).toMatchObject({
        ...sampleMetadata(id('ep')),
        isHeartbeatEnabled: null,
        heartbeats: [],
      });
    });

    it('getEndpointMetadata is null for an unknown endpoint', async () => {
      const { store, id } = await open();
      expect(await store.getEndpointMetadata(id('missing'))).toBeNull();
    });

    it('omitted optional metadata fields read back as null or empty', async () => {
      const { store, id } = await open();
      await store.setEndpointMetadata({ endpointId: id('ep'), endpointOwner: '' });
      expect(await store.getEndpointMetadata(id('ep'))).toMatchObject({
        endpointOwner: '',
        endpointOwnerTeam: null,
        technicalContacts: [],
        subscriptionStatus: null,
      });
    });

    it('a reserved endpoint id is rejected', async () => {
      const { store } = await open();
      await expect(store.setEndpointMetadata(sampleMetadata('Metadata'))).rejects.toMatchObject({
        code: 'ReservedEndpointId',
      });
    });

    it('getMetadatas lists all and filters by ids, skipping unknown ones', async () => {
      const { store, id } = await open();
      await store.setEndpointMetadata(sampleMetadata(id('one')));
      await store.setEndpointMetadata(sampleMetadata(id('two')));
      expect((await store.getMetadatas()).length).toBeGreaterThanOrEqual(2);
      expect((await store.getMetadatas([id('two'), id('missing')])).map((m) => m.endpointId)).toEqual([
        id('two'),
      ]);
      expect(await store.getMetadatas([])).toEqual([]);
    });

    it('getMetadatas includes heartbeat rows in both forms', async () => {
      const { store, id } = await open();
      await store.setEndpointMetadata(sampleMetadata(id('ep')));
      await store.setHeartbeat({ endpointId: id('ep'), heartbeat: probe('p1', HS.On, 0) });
      const filtered = await store.getMetadatas([id('ep')]);
      const all = (await store.getMetadatas()).filter((m) => m.endpointId === id('ep'));
      expect(filtered[0]?.heartbeats.map((h) => h.messageId)).toEqual(['p1']);
      expect(all[0]?.heartbeats.map((h) => h.messageId)).toEqual(['p1']);
    });

    it('setEndpointMetadata leaves the heartbeat rows alone', async () => {
      const { store, id } = await open();
      await store.setHeartbeat({ endpointId: id('ep'), heartbeat: probe('p1', HS.On, 0) });
      await store.setEndpointMetadata(sampleMetadata(id('ep')));
      expect((await store.getEndpointMetadata(id('ep')))?.heartbeats).toHaveLength(1);
    });

    it('setHeartbeat settles the pending row instead of duplicating it, keeping its interval', async () => {
      const { store, id } = await open();
      const ep = id('ep');
      await store.setHeartbeat({ endpointId: ep, heartbeat: probe('p1', HS.Pending, 0) });
      let meta = await store.getEndpointMetadata(ep);
      expect(meta?.heartbeats).toHaveLength(1);
      expect(meta?.endpointHeartbeatStatus).toBe(HS.Pending);
      await store.setHeartbeat({
        endpointId: ep,
        heartbeat: { ...probe('p1', HS.On, 0, 120, '9.9.9'), intervalSeconds: 0 },
      });
      meta = await store.getEndpointMetadata(ep);
      expect(meta?.heartbeats).toHaveLength(1);
      expect(meta?.heartbeats[0]).toMatchObject({
        endpointHeartbeatStatus: HS.On,
        startTime: at(0),
        endTime: at(120),
        sdkVersion: '9.9.9',
        intervalSeconds: 300,
      });
      expect(meta?.endpointHeartbeatStatus).toBe(HS.On);
    });

    it('setHeartbeat keeps only the 20 newest rows', async () => {
      const { store, id } = await open();
      for (let i = 0; i < 25; i++)
        await store.setHeartbeat({ endpointId: id('ep'), heartbeat: probe(`p${i}`, HS.On, i * MINUTE) });
      const rows = (await store.getEndpointMetadata(id('ep')))?.heartbeats ?? [];
      expect(rows).toHaveLength(20);
      expect(rows[0]?.startTime).toEqual(at(5 * MINUTE));
      expect(rows[19]?.startTime).toEqual(at(24 * MINUTE));
    });

    it('enableHeartbeatOnEndpoint drives the opt-in list and creates the record', async () => {
      const { store, id } = await open();
      await store.enableHeartbeatOnEndpoint({ endpointId: id('on'), enable: true });
      await store.enableHeartbeatOnEndpoint({ endpointId: id('off'), enable: false });
      expect((await store.getEndpointMetadata(id('on')))?.isHeartbeatEnabled).toBe(true);
      expect((await store.getEndpointMetadata(id('off')))?.isHeartbeatEnabled).toBe(false);
      const enabled = () => store.getMetadatasWithEnabledHeartbeat().then((l) => l.map((m) => m.endpointId));
      expect(await enabled()).toContain(id('on'));
      expect(await enabled()).not.toContain(id('off'));
      await store.enableHeartbeatOnEndpoint({ endpointId: id('on'), enable: false });
      expect(await enabled()).not.toContain(id('on'));
    });

    it('getHeartbeatSettings returns the defaults when nothing is stored', async () => {
      const { store } = await open();
      expect(await store.getHeartbeatSettings()).toMatchObject({
        id: 'HeartbeatSettings',
        enabled: false,
        intervalSeconds: 300,
        timeoutSeconds: 60,
        lastSentAtUtc: null,
      });
    });

    it('setHeartbeatSettings round-trips and keeps lastSentAtUtc when none is supplied', async () => {
      const { store } = await open();
      const stamp = at(-MINUTE);
      const base = { id: '', lastHeartbeatFoldAtUtc: null };
      await store.setHeartbeatSettings({
        ...base,
        enabled: true,
        intervalSeconds: 90,
        timeoutSeconds: 45,
        lastSentAtUtc: stamp,
      });
      expect(await store.getHeartbeatSettings()).toMatchObject({
        id: 'HeartbeatSettings',
        enabled: true,
        intervalSeconds: 90,
        lastSentAtUtc: stamp,
      });
      await store.setHeartbeatSettings({
        ...base,
        enabled: false,
        intervalSeconds: 120,
        timeoutSeconds: 60,
        lastSentAtUtc: null,
      });
      expect(await store.getHeartbeatSettings()).toMatchObject({
        enabled: false,
        intervalSeconds: 120,
        timeoutSeconds: 60,
        lastSentAtUtc: stamp,
      });
    });

    it('missedBeatsUntilOff defaults to three, round-trips, and a write without it keeps it', async () => {
      const { store } = await open();
      expect((await store.getHeartbeatSettings()).missedBeatsUntilOff).toBe(3);
      const write = {
        id: '',
        enabled: true,
        intervalSeconds: 60,
        timeoutSeconds: 30,
        lastSentAtUtc: null,
        lastHeartbeatFoldAtUtc: null,
      };
      await store.setHeartbeatSettings({ ...write, missedBeatsUntilOff: 5 });
      expect((await store.getHeartbeatSettings()).missedBeatsUntilOff).toBe(5);
      await store.setHeartbeatSettings({ ...write, intervalSeconds: 90 });
      expect(await store.getHeartbeatSettings()).toMatchObject({
        intervalSeconds: 90,
        missedBeatsUntilOff: 5,
      });
    });

    it('tryClaimHeartbeatSend lets exactly one caller send per interval', async () => {
      const { store, clock } = await open();
      await store.setHeartbeatSettings({
        id: '',
        enabled: true,
        intervalSeconds: 300,
        timeoutSeconds: 60,
        lastSentAtUtc: null,
        lastHeartbeatFoldAtUtc: null,
      });
      expect(await store.tryClaimHeartbeatSend(new Date(clock.now() + 5 * MINUTE))).toBe(true);
      expect((await store.getHeartbeatSettings()).lastSentAtUtc).toEqual(new Date(clock.now()));
      expect(await store.tryClaimHeartbeatSend(new Date(clock.now() - 5 * MINUTE))).toBe(false);
      expect(await store.tryClaimHeartbeatSend(new Date(clock.now() + 5 * MINUTE))).toBe(true);
    });

    it('tryClaimHeartbeatSend fails while heartbeats are disabled', async () => {
      const { store, clock } = await open();
      expect(await store.tryClaimHeartbeatSend(new Date(clock.now() + 5 * MINUTE))).toBe(false);
    });

    it('concurrent send claims: exactly one wins', async () => {
      const { store, clock } = await open();
      await store.setHeartbeatSettings({
        id: '',
        enabled: true,
        intervalSeconds: 300,
        timeoutSeconds: 60,
        lastSentAtUtc: at(-10 * MINUTE),
        lastHeartbeatFoldAtUtc: null,
      });
      const due = new Date(clock.now() - 5 * MINUTE);
      const results = await Promise.all([store.tryClaimHeartbeatSend(due), store.tryClaimHeartbeatSend(due)]);
      expect(results.filter(Boolean)).toHaveLength(1);
    });

    it('sweepTimedOutHeartbeats settles only stale pending rows', async () => {
      const { store, id } = await open();
      await store.setHeartbeat({
        endpointId: id('stale'),
        heartbeat: probe('stale', HS.Pending, -10 * MINUTE),
      });
      await store.setHeartbeat({ endpointId: id('fresh'), heartbeat: probe('fresh', HS.Pending, 0) });
      await store.setHeartbeat({
        endpointId: id('answered'),
        heartbeat: probe('answered', HS.On, -10 * MINUTE),
      });
      const touched = await store.sweepTimedOutHeartbeats(at(-5 * MINUTE));
      expect(touched).toContain(id('stale'));
      expect(touched).not.toContain(id('fresh'));
      expect(touched).not.toContain(id('answered'));
      expect((await store.getEndpointMetadata(id('stale')))?.heartbeats[0]?.endpointHeartbeatStatus).toBe(
        HS.Off,
      );
      expect((await store.getEndpointMetadata(id('stale')))?.endpointHeartbeatStatus).toBe(HS.Off);
      expect((await store.getEndpointMetadata(id('fresh')))?.heartbeats[0]?.endpointHeartbeatStatus).toBe(
        HS.Pending,
      );
    });

    const overviewOf = async (store: EndpointMetadataStore, ep: string) =>
      (await store.getHeartbeatOverview()).find((o) => o.endpointId === ep);

    it('overview: an in-flight probe does not mask the last settled outcome', async () => {
      const { store, id } = await open();
      await store.setHeartbeat({ endpointId: id('ep'), heartbeat: probe('p1', HS.On, 0, 120, '10.0.5') });
      await store.setHeartbeat({ endpointId: id('ep'), heartbeat: probe('p2', HS.Pending, 5 * MINUTE) });
      expect(await overviewOf(store, id('ep'))).toMatchObject({
        status: HS.On,
        roundTripMs: 120,
        sdkVersion: '10.0.5',
        messageId: 'p2',
        lastStartTime: at(5 * MINUTE),
        lastEndTime: at(120),
      });
    });

    it('overview: a dead endpoint keeps showing Off while the next probe is in flight', async () => {
      const { store, id } = await open();
      await store.setHeartbeat({ endpointId: id('ep'), heartbeat: probe('p1', HS.Off, 0) });
      await store.setHeartbeat({ endpointId: id('ep'), heartbeat: probe('p2', HS.Pending, 5 * MINUTE) });
      expect((await overviewOf(store, id('ep')))?.status).toBe(HS.Off);
    });

    it('overview: the first probe shows Pending until it settles', async () => {
      const { store, id } = await open();
      await store.setHeartbeat({ endpointId: id('ep'), heartbeat: probe('p1', HS.Pending, 0) });
      expect(await overviewOf(store, id('ep'))).toMatchObject({
        status: HS.Pending,
        roundTripMs: null,
        lastEndTime: null,
      });
    });

    it('overview: an endpoint without probes reads Unknown', async () => {
      const { store, id } = await open();
      await store.setEndpointMetadata(sampleMetadata(id('ep')));
      expect(await overviewOf(store, id('ep'))).toMatchObject({
        status: HS.Unknown,
        lastStartTime: null,
        roundTripMs: null,
        sdkVersion: '',
      });
    });

    it('overview: round trip and SDK version come from the last answered probe', async () => {
      const { store, id } = await open();
      await store.setHeartbeat({ endpointId: id('ep'), heartbeat: probe('p1', HS.On, 0, 80, '10.0.4') });
      await store.setHeartbeat({ endpointId: id('ep'), heartbeat: probe('p2', HS.Off, 5 * MINUTE) });
      expect(await overviewOf(store, id('ep'))).toMatchObject({
        status: HS.Off,
        roundTripMs: 80,
        sdkVersion: '10.0.4',
      });
    });

    it('rollup keeps the settled outcome when the next probe is written as pending', async () => {
      const { store, id } = await open();
      await store.setHeartbeat({ endpointId: id('ep'), heartbeat: probe('p1', HS.On, 0) });
      await store.setHeartbeat({ endpointId: id('ep'), heartbeat: probe('p2', HS.Pending, 5 * MINUTE) });
      expect((await store.getEndpointMetadata(id('ep')))?.endpointHeartbeatStatus).toBe(HS.On);
    });

    it('rollup follows the newest settled outcome', async () => {
      const { store, id } = await open();
      await store.setHeartbeat({ endpointId: id('ep'), heartbeat: probe('p1', HS.On, 0) });
      await store.setHeartbeat({ endpointId: id('ep'), heartbeat: probe('p2', HS.Off, 5 * MINUTE) });
      expect((await store.getEndpointMetadata(id('ep')))?.endpointHeartbeatStatus).toBe(HS.Off);
    });
  });
}
