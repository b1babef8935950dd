import { MessageType } from '@nimbus/core';
import { describe, expect, it } from 'vitest';
import type { MessageTrackingStore } from '../contracts/message-tracking-store.js';
import { allUnresolvedEventIds } from '../entities/endpoint-state.js';
import { EndpointRole, HANDOFF_SUB_STATUS, ResolutionStatus as RS } from '../enums.js';
import { PaginationLimits } from '../pagination.js';
import { content, getAs, sampleEvent, uploadAs } from './fixtures.js';
import type { OpenedStore } from './harness.js';

type Open = () => Promise<OpenedStore<MessageTrackingStore>>;

export function registerStatusAndViewCases(open: Open): void {
  describe('status writes and handoff rows', () => {
    it('uploadPending then getPendingEvent returns the event', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      expect(
        await store.writeStatus({
          key: { endpointId: ep, eventId: id('e'), sessionId: 's1' },
          status: RS.Pending,
          content: sampleEvent(clock, ep),
        }),
      ).toBe(true);
      const row = await store.getEventInStatus(
        { endpointId: ep, eventId: id('e'), sessionId: 's1' },
        RS.Pending,
      );
      expect(row?.eventId).toBe(id('e'));
      expect(row?.sessionId).toBe('s1');
      expect(row?.endpointId).toBe(ep);
      expect(row?.resolutionStatus).toBe(RS.Pending);
      expect(row?.updatedAt.getTime()).toBe(clock.now());
    });

    it('getPendingHandoffByExternalJobId returns the pending handoff row', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('e'), sessionId: 's1' },
        status: RS.Pending,
        content: sampleEvent(clock, ep, {
          messageType: MessageType.PendingHandoffResponse,
          pendingSubStatus: HANDOFF_SUB_STATUS,
          handoffReason: 'waiting for ERP',
          externalJobId: 'job-1',
        }),
      });
      const row = await store.getPendingHandoffByExternalJobId({ endpointId: ep, externalJobId: 'job-1' });
      expect(row?.pendingSubStatus).toBe(HANDOFF_SUB_STATUS);
      expect(row?.externalJobId).toBe('job-1');
    });

    it('getPendingHandoffByExternalJobId returns null for an unknown, null or empty job id', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('e'), sessionId: 's1' },
        status: RS.Pending,
        content: sampleEvent(clock, ep, { externalJobId: '' }),
      });
      expect(
        await store.getPendingHandoffByExternalJobId({ endpointId: ep, externalJobId: 'nope' }),
      ).toBeNull();
      expect(
        await store.getPendingHandoffByExternalJobId({ endpointId: ep, externalJobId: null }),
      ).toBeNull();
      expect(await store.getPendingHandoffByExternalJobId({ endpointId: ep, externalJobId: '' })).toBeNull();
    });

    it('getNextPendingHandoffEvent returns only the pending handoff row', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('plain'), sessionId: 's1' },
        status: RS.Pending,
        content: sampleEvent(clock, ep),
      });
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('failed'), sessionId: 's2' },
        status: RS.Failed,
        content: sampleEvent(clock, ep, { pendingSubStatus: 'Handoff' }),
      });
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('handoff'), sessionId: 's3' },
        status: RS.Pending,
        content: sampleEvent(clock, ep, {
          messageType: MessageType.PendingHandoffResponse,
          pendingSubStatus: 'Handoff',
        }),
      });
      expect((await store.getNextPendingHandoffEvent({ endpointId: ep }))?.eventId).toBe(id('handoff'));
    });

    it('getNextPendingHandoffEvent returns null when no handoff exists, and the oldest when several do', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('plain'), sessionId: 's1' },
        status: RS.Pending,
        content: sampleEvent(clock, ep),
      });
      expect(await store.getNextPendingHandoffEvent({ endpointId: ep })).toBeNull();
      const park = (enqueued: number) =>
        sampleEvent(clock, ep, {
          messageType: MessageType.PendingHandoffResponse,
          pendingSubStatus: 'Handoff',
          enqueuedTimeUtc: new Date(enqueued),
        });
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('newer'), sessionId: 's2' },
        status: RS.Pending,
        content: park(clock.now() - 1000),
      });
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('older'), sessionId: 's3' },
        status: RS.Pending,
        content: park(clock.now() - 5000),
      });
      expect((await store.getNextPendingHandoffEvent({ endpointId: ep, eventTypeIds: [] }))?.eventId).toBe(
        id('older'),
      );
    });

    it('getNextPendingHandoffEvent respects the event type filter', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('h'), sessionId: 's1' },
        status: RS.Pending,
        content: sampleEvent(clock, ep, {
          messageType: MessageType.PendingHandoffResponse,
          pendingSubStatus: 'Handoff',
        }),
      });
      expect(
        await store.getNextPendingHandoffEvent({ endpointId: ep, eventTypeIds: ['SomethingElse'] }),
      ).toBeNull();
      expect(
        (
          await store.getNextPendingHandoffEvent({
            endpointId: ep,
            eventTypeIds: ['OrderPlaced', 'AnotherType'],
          })
        )?.eventId,
      ).toBe(id('h'));
    });

    it('repeated uploads leave exactly one row', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('e'), sessionId: 's1' },
        status: RS.Failed,
        content: sampleEvent(clock, ep),
      });
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('e'), sessionId: 's1' },
        status: RS.Failed,
        content: sampleEvent(clock, ep),
      });
      expect((await store.downloadEndpointStateCount(ep)).failedCount).toBe(1);
    });

    it('a status transition replaces the previous status (Pending then Completed)', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('e'), sessionId: 's1' },
        status: RS.Pending,
        content: sampleEvent(clock, ep),
      });
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('e'), sessionId: 's1' },
        status: RS.Completed,
        content: sampleEvent(clock, ep, { messageType: MessageType.ResolutionResponse }),
      });
      expect((await store.downloadEndpointStateCount(ep)).pendingCount).toBe(0);
      expect((await store.getEvent({ endpointId: ep, eventId: id('e') }))?.resolutionStatus).toBe(
        RS.Completed,
      );
    });

    it('every unresolved status round-trips through its lookup', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      const statuses = [RS.Pending, RS.Deferred, RS.Failed, RS.DeadLettered, RS.Unsupported];
      for (const status of statuses) {
        await uploadAs(store, status, id(status), 's1', ep, sampleEvent(clock, ep));
      }
      for (const status of statuses) {
        expect((await getAs(store, status, ep, id(status), 's1'))?.resolutionStatus).toBe(status);
      }
    });

    it('Completed and Skipped round-trip; only Completed is in the completed listing', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('done'), sessionId: 's1' },
        status: RS.Completed,
        content: sampleEvent(clock, ep),
      });
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('skipped'), sessionId: 's1' },
        status: RS.Skipped,
        content: sampleEvent(clock, ep, { messageContent: content(null, 'skipped by operator') }),
      });
      const completed = await store.getCompletedEventsOnEndpoint(ep);
      expect(completed.map((e) => e.eventId)).toEqual([id('done')]);
      const skipped = await store.getEvent({ endpointId: ep, eventId: id('skipped') });
      expect(skipped?.resolutionStatus).toBe(RS.Skipped);
      expect(skipped?.messageContent.errorContent?.errorText).toBe('skipped by operator');
      expect(skipped?.messageContent.errorContent?.errorType).toBe('System.TimeoutException');
    });

    it('CloudEvent identity round-trips on a tracked event; absent identity stays null', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      const ce = {
        cloudEventId: 'ce-1',
        cloudEventSource: '/crm',
        cloudEventType: 'order.placed',
        cloudEventSubject: 'o/42',
      };
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('ce'), sessionId: 's1' },
        status: RS.Failed,
        content: sampleEvent(clock, ep, ce),
      });
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('native'), sessionId: 's1' },
        status: RS.Failed,
        content: sampleEvent(clock, ep),
      });
      expect(
        await store.getEventInStatus({ endpointId: ep, eventId: id('ce'), sessionId: 's1' }, RS.Failed),
      ).toMatchObject(ce);
      expect(
        await store.getEventInStatus({ endpointId: ep, eventId: id('native'), sessionId: 's1' }, RS.Failed),
      ).toMatchObject({
        cloudEventId: null,
        cloudEventSource: null,
        cloudEventType: null,
        cloudEventSubject: null,
      });
    });
  });

  describe('endpoint and session views', () => {
    it('downloadEndpointStateCount groups by status', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('a'), sessionId: 's1' },
        status: RS.Pending,
        content: sampleEvent(clock, ep),
      });
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('b'), sessionId: 's2' },
        status: RS.Pending,
        content: sampleEvent(clock, ep),
      });
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('c'), sessionId: 's3' },
        status: RS.Failed,
        content: sampleEvent(clock, ep),
      });
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('d'), sessionId: 's4' },
        status: RS.Completed,
        content: sampleEvent(clock, ep),
      });
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
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('p'), sessionId: 's1' },
        status: RS.Pending,
        content: sampleEvent(clock, ep),
      });
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('d'), sessionId: 's1' },
        status: RS.Deferred,
        content: sampleEvent(clock, ep),
      });
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('f'), sessionId: 's1' },
        status: RS.Failed,
        content: sampleEvent(clock, ep),
      });
      const session = await store.downloadEndpointSessionStateCount({ endpointId: ep, sessionId: 's1' });
      expect(session.pendingEvents).toEqual([`${id('p')}_s1`]);
      expect(session.deferredEvents).toEqual([`${id('d')}_s1`]);
    });

    it('downloadEndpointSessionStateCountBatch answers every requested session', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('p'), sessionId: 's1' },
        status: RS.Pending,
        content: sampleEvent(clock, ep),
      });
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('d'), sessionId: 's2' },
        status: RS.Deferred,
        content: sampleEvent(clock, ep),
      });
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
        await store.writeStatus({
          key: { endpointId: ep, eventId: id(`e${i}`), sessionId: 's1' },
          status: RS.Failed,
          content: sampleEvent(clock, ep),
        });
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
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('a'), sessionId: 's1' },
        status: RS.Failed,
        content: sampleEvent(clock, ep),
      });
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('b'), sessionId: 's2' },
        status: RS.Pending,
        content: sampleEvent(clock, ep),
      });
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
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('f'), sessionId: 's1' },
        status: RS.Failed,
        content: sampleEvent(clock, ep),
      });
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('d'), sessionId: 's1' },
        status: RS.Deferred,
        content: sampleEvent(clock, ep),
      });
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('p'), sessionId: 's1' },
        status: RS.Pending,
        content: sampleEvent(clock, ep),
      });
      const list = await store.getEndpointErrorList(ep);
      expect(list.endsWith(';')).toBe(true);
      expect(list.split(';').filter(Boolean).sort()).toEqual([`${id('d')}_s1`, `${id('f')}_s1`].sort());
    });

    it('getBlockedEventsOnSession returns pending and deferred rows with their status', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('p'), sessionId: 's1' },
        status: RS.Pending,
        content: sampleEvent(clock, ep),
      });
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('d'), sessionId: 's1' },
        status: RS.Deferred,
        content: sampleEvent(clock, ep),
      });
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('f'), sessionId: 's1' },
        status: RS.Failed,
        content: sampleEvent(clock, ep),
      });
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

    it('purgeMessages removes only the target session', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('a'), sessionId: 's1' },
        status: RS.Pending,
        content: sampleEvent(clock, ep),
      });
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('b'), sessionId: 's2' },
        status: RS.Pending,
        content: sampleEvent(clock, ep),
      });
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
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('a'), sessionId: 's1' },
        status: RS.Pending,
        content: sampleEvent(clock, ep),
      });
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('b'), sessionId: 's2' },
        status: RS.Failed,
        content: sampleEvent(clock, ep),
      });
      await store.writeStatus({
        key: { endpointId: other, eventId: id('c'), sessionId: 's1' },
        status: RS.Failed,
        content: sampleEvent(clock, other),
      });
      expect(await store.purgeMessages({ endpointId: ep })).toBe(true);
      expect(await store.purgeMessages({ endpointId: ep })).toBe(false);
      expect((await store.downloadEndpointStateCount(ep)).failedCount).toBe(0);
      expect((await store.downloadEndpointStateCount(other)).failedCount).toBe(1);
    });

    it('getBlockedEventsOnSession pages and reports the total on every page', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      for (let i = 0; i < 5; i++) {
        await store.writeStatus({
          key: { endpointId: ep, eventId: id(`e${i}`), sessionId: 's1' },
          status: RS.Pending,
          content: sampleEvent(clock, ep),
        });
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
        await store.writeStatus({
          key: { endpointId: ep, eventId: id(`e${i}`), sessionId: 's1' },
          status: RS.Pending,
          content: sampleEvent(clock, ep),
        });
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
      for (let i = 0; i < 3; i++)
        await store.writeStatus({
          key: { endpointId: ep, eventId: id(`e${i}`), sessionId: 's1' },
          status: RS.Pending,
          content: sampleEvent(clock, ep),
        });
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
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('a'), sessionId: 's1' },
        status: RS.Pending,
        content: sampleEvent(clock, ep),
      });
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('b'), sessionId: 's2' },
        status: RS.Pending,
        content: sampleEvent(clock, ep),
      });
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('c'), sessionId: 's3' },
        status: RS.Failed,
        content: sampleEvent(clock, ep),
      });
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
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('sub'), sessionId: 's2' },
        status: RS.Pending,
        content: sampleEvent(clock, ep),
      });
      expect((await store.getInvalidEventsOnSession(ep)).map((e) => e.eventId)).toEqual([id('pub')]);
    });

    it('removeMessage drops the row from counts and returns false the second time', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('e'), sessionId: 's1' },
        status: RS.Failed,
        content: sampleEvent(clock, ep),
      });
      expect(await store.removeMessage({ endpointId: ep, eventId: id('e'), sessionId: 's1' })).toBe(true);
      expect(await store.removeMessage({ endpointId: ep, eventId: id('e'), sessionId: 's1' })).toBe(false);
      expect((await store.downloadEndpointStateCount(ep)).failedCount).toBe(0);
    });

    it('archiveFailedEvent takes the row out of every live view', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('e'), sessionId: 's1' },
        status: RS.Failed,
        content: sampleEvent(clock, ep),
      });
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
