import { describe, expect, it } from 'vitest';
import type { MessageTrackingStore } from '../contracts/message-tracking-store.js';
import { EndpointRole, ResolutionStatus as RS } from '../enums.js';
import { PaginationLimits } from '../pagination.js';
import { sampleEvent, writeSampleRows } from './fixtures.js';
import type { OpenedStore } from './harness.js';

type Open = () => Promise<OpenedStore<MessageTrackingStore>>;

export function registerSessionViewCases(open: Open): void {
  describe('session views, purge and row lifecycle', () => {
    it('purgeMessages removes only the target session', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await writeSampleRows(store, clock, ep, [
        [id('a'), 's1', RS.Pending],
        [id('b'), 's2', RS.Pending],
      ]);
      expect(await store.purgeMessages({ endpointId: ep, sessionId: 's1' })).toBe(true);
      expect(
        (await store.getBlockedEventsOnSession({ endpointId: ep, sessionId: 's1', skip: 0, take: 10 })).total,
      ).toBe(0);
      expect(
        (await store.getBlockedEventsOnSession({ endpointId: ep, sessionId: 's2', skip: 0, take: 10 })).total,
      ).toBe(1);
    });

    it('purgeMessages without a session removes every row on the endpoint only', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      const other = id('other');
      await writeSampleRows(store, clock, ep, [
        [id('a'), 's1', RS.Pending],
        [id('b'), 's2', RS.Failed],
      ]);
      await writeSampleRows(store, clock, other, [[id('c'), 's1', RS.Failed]]);
      expect(await store.purgeMessages({ endpointId: ep })).toBe(true);
      expect(await store.purgeMessages({ endpointId: ep })).toBe(false);
      expect((await store.downloadEndpointStateCount(ep)).failedCount).toBe(0);
      expect((await store.downloadEndpointStateCount(other)).failedCount).toBe(1);
    });

    it('getBlockedEventsOnSession pages and reports the total on every page', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      for (let i = 0; i < 5; i++) {
        await writeSampleRows(store, clock, ep, [[id(`e${i}`), 's1', RS.Pending]]);
        clock.advance(1000);
      }
      const pages = await Promise.all(
        [0, 2, 4].map((skip) =>
          store.getBlockedEventsOnSession({ endpointId: ep, sessionId: 's1', skip, take: 2 }),
        ),
      );
      expect(pages.map((p) => p.items.length)).toEqual([2, 2, 1]);
      expect(pages.every((p) => p.total === 5)).toBe(true);
      expect(new Set(pages.flatMap((p) => p.items.map((i) => i.eventId))).size).toBe(5);
      expect(
        (await store.getBlockedEventsOnSession({ endpointId: ep, sessionId: 's1', skip: -3, take: 2 })).items,
      ).toEqual(pages[0]?.items);
    });

    it('getBlockedEventsOnSession caps a non-positive take at the default page size', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      for (let i = 0; i < PaginationLimits.defaultPageSize + 1; i++) {
        await writeSampleRows(store, clock, ep, [[id(`e${i}`), 's1', RS.Pending]]);
      }
      const zero = await store.getBlockedEventsOnSession({
        endpointId: ep,
        sessionId: 's1',
        skip: 0,
        take: 0,
      });
      expect(zero.items).toHaveLength(PaginationLimits.defaultPageSize);
      expect(zero.total).toBe(PaginationLimits.defaultPageSize + 1);
      expect(
        (await store.getBlockedEventsOnSession({ endpointId: ep, sessionId: 's1', skip: 0, take: -1 })).items,
      ).toHaveLength(100);
    });

    it('getBlockedEventsOnSession accepts a take above the maximum', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      for (let i = 0; i < 3; i++) await writeSampleRows(store, clock, ep, [[id(`e${i}`), 's1', RS.Pending]]);
      const page = await store.getBlockedEventsOnSession({
        endpointId: ep,
        sessionId: 's1',
        skip: 0,
        take: PaginationLimits.maxPageSize + 5,
      });
      expect(page.items).toHaveLength(3);
    });

    it('getPendingEventsOnSession returns every pending row on the endpoint', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await writeSampleRows(store, clock, ep, [
        [id('a'), 's1', RS.Pending],
        [id('b'), 's2', RS.Pending],
        [id('c'), 's3', RS.Failed],
      ]);
      const rows = await store.getPendingEventsOnSession(ep);
      expect(rows.map((r) => r.eventId).sort()).toEqual([id('a'), id('b')].sort());
    });

    it('getInvalidEventsOnSession returns publisher-role rows only', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('pub'), sessionId: 's1' },
        status: RS.Pending,
        content: sampleEvent(clock, ep, { endpointRole: EndpointRole.Publisher }),
      });
      await writeSampleRows(store, clock, ep, [[id('sub'), 's2', RS.Pending]]);
      expect((await store.getInvalidEventsOnSession(ep)).map((e) => e.eventId)).toEqual([id('pub')]);
    });

    it('removeMessage drops the row from counts and returns false the second time', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await writeSampleRows(store, clock, ep, [[id('e'), 's1', RS.Failed]]);
      expect(await store.removeMessage({ endpointId: ep, eventId: id('e'), sessionId: 's1' })).toBe(true);
      expect(await store.removeMessage({ endpointId: ep, eventId: id('e'), sessionId: 's1' })).toBe(false);
      expect((await store.downloadEndpointStateCount(ep)).failedCount).toBe(0);
    });

    it('archiveFailedEvent takes the row out of every live view', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await writeSampleRows(store, clock, ep, [[id('e'), 's1', RS.Failed]]);
      await store.archiveFailedEvent({ endpointId: ep, eventId: id('e'), sessionId: 's1' });
      await store.archiveFailedEvent({ endpointId: ep, eventId: id('missing'), sessionId: 's1' });
      expect((await store.downloadEndpointStateCount(ep)).failedCount).toBe(0);
      expect(await store.getEndpointErrorList(ep)).toBe('');
      expect(
        (await store.getEventsByFilter({ filter: { endpointId: ep }, continuationToken: null, maxItems: 10 }))
          .events,
      ).toHaveLength(0);
    });
  });
}
