import { describe, expect, it } from 'vitest';
import type { MessageTrackingStore } from '../contracts/message-tracking-store.js';
import { allUnresolvedEventIds } from '../entities/endpoint-state.js';
import { ResolutionStatus as RS } from '../enums.js';
import { sampleEvent, uploadAs, writeSampleRows } from './fixtures.js';
import type { OpenedStore } from './harness.js';

type Open = () => Promise<OpenedStore<MessageTrackingStore>>;

export function registerEndpointViewCases(open: Open): void {
  describe('endpoint and session views', () => {
    it('downloadEndpointStateCount groups by status', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await writeSampleRows(store, clock, ep, [
        [id('a'), 's1', RS.Pending],
        [id('b'), 's2', RS.Pending],
        [id('c'), 's3', RS.Failed],
        [id('d'), 's4', RS.Completed],
      ]);
      expect(await store.downloadEndpointStateCount(ep)).toMatchObject({
        endpointId: ep,
        pendingCount: 2,
        failedCount: 1,
        deferredCount: 0,
        deadletterCount: 0,
        unsupportedCount: 0,
      });
    });

    it('downloadEndpointSessionStateCount lists the session pending and deferred composite ids', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await writeSampleRows(store, clock, ep, [
        [id('p'), 's1', RS.Pending],
        [id('d'), 's1', RS.Deferred],
        [id('f'), 's1', RS.Failed],
      ]);
      const session = await store.downloadEndpointSessionStateCount({ endpointId: ep, sessionId: 's1' });
      expect(session.pendingEvents).toEqual([`${id('p')}_s1`]);
      expect(session.deferredEvents).toEqual([`${id('d')}_s1`]);
    });

    it('downloadEndpointSessionStateCountBatch answers every requested session', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await writeSampleRows(store, clock, ep, [
        [id('p'), 's1', RS.Pending],
        [id('d'), 's2', RS.Deferred],
      ]);
      const batch = await store.downloadEndpointSessionStateCountBatch({
        endpointId: ep,
        sessionIds: ['s1', 's2', 'empty'],
      });
      const bySession = new Map(batch.map((b) => [b.sessionId, b]));
      expect(bySession.get('s1')?.pendingEvents).toEqual([`${id('p')}_s1`]);
      expect(bySession.get('s2')?.deferredEvents).toEqual([`${id('d')}_s2`]);
      expect(bySession.get('empty')).toEqual({ sessionId: 'empty', pendingEvents: [], deferredEvents: [] });
      expect(await store.downloadEndpointSessionStateCountBatch({ endpointId: ep, sessionIds: [] })).toEqual(
        [],
      );
    });

    it('downloadEndpointStatePaging lists actionable rows only', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      for (const status of [
        RS.Pending,
        RS.Deferred,
        RS.Failed,
        RS.DeadLettered,
        RS.Unsupported,
        RS.Completed,
      ]) {
        await uploadAs(store, status, id(status), 's1', ep, sampleEvent(clock, ep));
      }
      const state = await store.downloadEndpointStatePaging({
        endpointId: ep,
        pageSize: 10,
        continuationToken: null,
      });
      expect(state.pendingEvents).toEqual([`${id('Pending')}_s1`]);
      expect(state.deferredEvents).toEqual([`${id('Deferred')}_s1`]);
      expect(state.failedEvents).toEqual([`${id('Failed')}_s1`]);
      expect(state.deadletteredEvents).toEqual([`${id('DeadLettered')}_s1`]);
      expect(state.unsupportedEvents).toEqual([`${id('Unsupported')}_s1`]);
      expect(allUnresolvedEventIds(state)).not.toContain(`${id('Completed')}_s1`);
      expect(state.enrichedUnresolvedEvents).toHaveLength(5);
      expect(state.continuationToken).toBeNull();
    });

    it('downloadEndpointStatePaging pages newest first with a continuation token', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      for (let i = 0; i < 5; i++) {
        await writeSampleRows(store, clock, ep, [[id(`e${i}`), 's1', RS.Failed]]);
        clock.advance(1000);
      }
      const first = await store.downloadEndpointStatePaging({
        endpointId: ep,
        pageSize: 3,
        continuationToken: null,
      });
      expect(first.failedEvents).toEqual([4, 3, 2].map((i) => `${id(`e${i}`)}_s1`));
      expect(first.continuationToken).not.toBeNull();
      const second = await store.downloadEndpointStatePaging({
        endpointId: ep,
        pageSize: 3,
        continuationToken: first.continuationToken,
      });
      expect(second.failedEvents).toEqual([1, 0].map((i) => `${id(`e${i}`)}_s1`));
      expect(second.continuationToken).toBeNull();
    });

    it('getEventsByIds accepts the composite ids handed out by the state views, and bare event ids', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await writeSampleRows(store, clock, ep, [
        [id('a'), 's1', RS.Failed],
        [id('b'), 's2', RS.Pending],
      ]);
      const state = await store.downloadEndpointStatePaging({
        endpointId: ep,
        pageSize: 10,
        continuationToken: null,
      });
      const byComposite = await store.getEventsByIds({ endpointId: ep, ids: allUnresolvedEventIds(state) });
      expect(byComposite.map((e) => e.eventId).sort()).toEqual([id('a'), id('b')].sort());
      expect((await store.getEventsByIds({ endpointId: ep, ids: [id('a')] })).map((e) => e.eventId)).toEqual([
        id('a'),
      ]);
      expect(await store.getEventsByIds({ endpointId: ep, ids: [] })).toEqual([]);
    });

    it('getEndpointErrorList lists failed and deferred composite ids with a trailing separator', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      expect(await store.getEndpointErrorList(ep)).toBe('');
      await writeSampleRows(store, clock, ep, [
        [id('f'), 's1', RS.Failed],
        [id('d'), 's1', RS.Deferred],
        [id('p'), 's1', RS.Pending],
      ]);
      const list = await store.getEndpointErrorList(ep);
      expect(list.endsWith(';')).toBe(true);
      expect(list.split(';').filter(Boolean).sort()).toEqual([`${id('d')}_s1`, `${id('f')}_s1`].sort());
    });

    it('getBlockedEventsOnSession returns pending and deferred rows with their status', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await writeSampleRows(store, clock, ep, [
        [id('p'), 's1', RS.Pending],
        [id('d'), 's1', RS.Deferred],
        [id('f'), 's1', RS.Failed],
      ]);
      const page = await store.getBlockedEventsOnSession({
        endpointId: ep,
        sessionId: 's1',
        skip: 0,
        take: 10,
      });
      expect(page.total).toBe(2);
      expect(page.items.map((i) => i.status).sort()).toEqual(['Deferred', 'Pending']);
      expect(page.items[0]?.originatingId).toBe('origin-message');
    });

    it('getBlockedEventsOnSession resolves a self-originated id to the last message id', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('p'), sessionId: 's1' },
        status: RS.Pending,
        content: sampleEvent(clock, ep, { originatingMessageId: 'SELF' }),
      });
      const page = await store.getBlockedEventsOnSession({
        endpointId: ep,
        sessionId: 's1',
        skip: 0,
        take: 10,
      });
      expect(page.items[0]?.originatingId).toBe('last-message');
    });
  });
}
