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
      expect(await store.uploadPendingMessage(id('e'), 's1', ep, sampleEvent(clock, ep))).toBe(true);
      const row = await store.getPendingEvent(ep, id('e'), 's1');
      expect(row?.eventId).toBe(id('e'));
      expect(row?.sessionId).toBe('s1');
      expect(row?.endpointId).toBe(ep);
      expect(row?.resolutionStatus).toBe(RS.Pending);
      expect(row?.updatedAt.getTime()).toBe(clock.now());
    });

    it('getPendingHandoffByExternalJobId returns the pending handoff row', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.uploadPendingMessage(
        id('e'),
        's1',
        ep,
        sampleEvent(clock, ep, {
          messageType: MessageType.PendingHandoffResponse,
          pendingSubStatus: HANDOFF_SUB_STATUS,
          handoffReason: 'waiting for ERP',
          externalJobId: 'job-1',
        }),
      );
      const row = await store.getPendingHandoffByExternalJobId(ep, 'job-1');
      expect(row?.pendingSubStatus).toBe(HANDOFF_SUB_STATUS);
      expect(row?.externalJobId).toBe('job-1');
    });

    it('getPendingHandoffByExternalJobId returns null for an unknown, null or empty job id', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.uploadPendingMessage(id('e'), 's1', ep, sampleEvent(clock, ep, { externalJobId: '' }));
      expect(await store.getPendingHandoffByExternalJobId(ep, 'nope')).toBeNull();
      expect(await store.getPendingHandoffByExternalJobId(ep, null)).toBeNull();
      expect(await store.getPendingHandoffByExternalJobId(ep, '')).toBeNull();
    });

    it('getNextPendingHandoffEvent returns only the pending handoff row', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.uploadPendingMessage(id('plain'), 's1', ep, sampleEvent(clock, ep));
      await store.uploadFailedMessage(
        id('failed'),
        's2',
        ep,
        sampleEvent(clock, ep, { pendingSubStatus: 'Handoff' }),
      );
      await store.uploadPendingMessage(
        id('handoff'),
        's3',
        ep,
        sampleEvent(clock, ep, {
          messageType: MessageType.PendingHandoffResponse,
          pendingSubStatus: 'Handoff',
        }),
      );
      expect((await store.getNextPendingHandoffEvent(ep))?.eventId).toBe(id('handoff'));
    });

    it('getNextPendingHandoffEvent returns null when no handoff exists, and the oldest when several do', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.uploadPendingMessage(id('plain'), 's1', ep, sampleEvent(clock, ep));
      expect(await store.getNextPendingHandoffEvent(ep)).toBeNull();
      const park = (enqueued: number) =>
        sampleEvent(clock, ep, {
          messageType: MessageType.PendingHandoffResponse,
          pendingSubStatus: 'Handoff',
          enqueuedTimeUtc: new Date(enqueued),
        });
      await store.uploadPendingMessage(id('newer'), 's2', ep, park(clock.now() - 1000));
      await store.uploadPendingMessage(id('older'), 's3', ep, park(clock.now() - 5000));
      expect((await store.getNextPendingHandoffEvent(ep, []))?.eventId).toBe(id('older'));
    });

    it('getNextPendingHandoffEvent respects the event type filter', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.uploadPendingMessage(
        id('h'),
        's1',
        ep,
        sampleEvent(clock, ep, {
          messageType: MessageType.PendingHandoffResponse,
          pendingSubStatus: 'Handoff',
        }),
      );
      expect(await store.getNextPendingHandoffEvent(ep, ['SomethingElse'])).toBeNull();
      expect((await store.getNextPendingHandoffEvent(ep, ['OrderPlaced', 'AnotherType']))?.eventId).toBe(
        id('h'),
      );
    });

    it('repeated uploads leave exactly one row', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.uploadFailedMessage(id('e'), 's1', ep, sampleEvent(clock, ep));
      await store.uploadFailedMessage(id('e'), 's1', ep, sampleEvent(clock, ep));
      expect((await store.downloadEndpointStateCount(ep)).failedCount).toBe(1);
    });

    it('a status transition replaces the previous status (Pending then Completed)', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.uploadPendingMessage(id('e'), 's1', ep, sampleEvent(clock, ep));
      await store.uploadCompletedMessage(
        id('e'),
        's1',
        ep,
        sampleEvent(clock, ep, { messageType: MessageType.ResolutionResponse }),
      );
      expect((await store.downloadEndpointStateCount(ep)).pendingCount).toBe(0);
      expect((await store.getEvent(ep, id('e')))?.resolutionStatus).toBe(RS.Completed);
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
      await store.uploadCompletedMessage(id('done'), 's1', ep, sampleEvent(clock, ep));
      await store.uploadSkippedMessage(
        id('skipped'),
        's1',
        ep,
        sampleEvent(clock, ep, { messageContent: content(null, 'skipped by operator') }),
      );
      const completed = await store.getCompletedEventsOnEndpoint(ep);
      expect(completed.map((e) => e.eventId)).toEqual([id('done')]);
      const skipped = await store.getEvent(ep, id('skipped'));
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
      await store.uploadFailedMessage(id('ce'), 's1', ep, sampleEvent(clock, ep, ce));
      await store.uploadFailedMessage(id('native'), 's1', ep, sampleEvent(clock, ep));
      expect(await store.getFailedEvent(ep, id('ce'), 's1')).toMatchObject(ce);
      expect(await store.getFailedEvent(ep, id('native'), 's1')).toMatchObject({
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
      await store.uploadPendingMessage(id('a'), 's1', ep, sampleEvent(clock, ep));
      await store.uploadPendingMessage(id('b'), 's2', ep, sampleEvent(clock, ep));
      await store.uploadFailedMessage(id('c'), 's3', ep, sampleEvent(clock, ep));
      await store.uploadCompletedMessage(id('d'), 's4', ep, sampleEvent(clock, ep));
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
      await store.uploadPendingMessage(id('p'), 's1', ep, sampleEvent(clock, ep));
      await store.uploadDeferredMessage(id('d'), 's1', ep, sampleEvent(clock, ep));
      await store.uploadFailedMessage(id('f'), 's1', ep, sampleEvent(clock, ep));
      const session = await store.downloadEndpointSessionStateCount(ep, 's1');
      expect(session.pendingEvents).toEqual([`${id('p')}_s1`]);
      expect(session.deferredEvents).toEqual([`${id('d')}_s1`]);
    });

    it('downloadEndpointSessionStateCountBatch answers every requested session', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.uploadPendingMessage(id('p'), 's1', ep, sampleEvent(clock, ep));
      await store.uploadDeferredMessage(id('d'), 's2', ep, sampleEvent(clock, ep));
      const batch = await store.downloadEndpointSessionStateCountBatch(ep, ['s1', 's2', 'empty']);
      const bySession = new Map(batch.map((b) => [b.sessionId, b]));
      expect(bySession.get('s1')?.pendingEvents).toEqual([`${id('p')}_s1`]);
      expect(bySession.get('s2')?.deferredEvents).toEqual([`${id('d')}_s2`]);
      expect(bySession.get('empty')).toEqual({ sessionId: 'empty', pendingEvents: [], deferredEvents: [] });
      expect(await store.downloadEndpointSessionStateCountBatch(ep, [])).toEqual([]);
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
      const state = await store.downloadEndpointStatePaging(ep, 10, null);
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
        await store.uploadFailedMessage(id(`e${i}`), 's1', ep, sampleEvent(clock, ep));
        clock.advance(1000);
      }
      const first = await store.downloadEndpointStatePaging(ep, 3, null);
      expect(first.failedEvents).toEqual([4, 3, 2].map((i) => `${id(`e${i}`)}_s1`));
      expect(first.continuationToken).not.toBeNull();
      const second = await store.downloadEndpointStatePaging(ep, 3, first.continuationToken);
      expect(second.failedEvents).toEqual([1, 0].map((i) => `${id(`e${i}`)}_s1`));
      expect(second.continuationToken).toBeNull();
    });

    it('getEventsByIds accepts the composite ids handed out by the state views, and bare event ids', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.uploadFailedMessage(id('a'), 's1', ep, sampleEvent(clock, ep));
      await store.uploadPendingMessage(id('b'), 's2', ep, sampleEvent(clock, ep));
      const state = await store.downloadEndpointStatePaging(ep, 10, null);
      const byComposite = await store.getEventsByIds(ep, allUnresolvedEventIds(state));
      expect(byComposite.map((e) => e.eventId).sort()).toEqual([id('a'), id('b')].sort());
      expect((await store.getEventsByIds(ep, [id('a')])).map((e) => e.eventId)).toEqual([id('a')]);
      expect(await store.getEventsByIds(ep, [])).toEqual([]);
    });

    it('getEndpointErrorList lists failed and deferred composite ids with a trailing separator', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      expect(await store.getEndpointErrorList(ep)).toBe('');
      await store.uploadFailedMessage(id('f'), 's1', ep, sampleEvent(clock, ep));
      await store.uploadDeferredMessage(id('d'), 's1', ep, sampleEvent(clock, ep));
      await store.uploadPendingMessage(id('p'), 's1', ep, sampleEvent(clock, ep));
      const list = await store.getEndpointErrorList(ep);
      expect(list.endsWith(';')).toBe(true);
      expect(list.split(';').filter(Boolean).sort()).toEqual([`${id('d')}_s1`, `${id('f')}_s1`].sort());
    });

    it('getBlockedEventsOnSession returns pending and deferred rows with their status', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.uploadPendingMessage(id('p'), 's1', ep, sampleEvent(clock, ep));
      await store.uploadDeferredMessage(id('d'), 's1', ep, sampleEvent(clock, ep));
      await store.uploadFailedMessage(id('f'), 's1', ep, sampleEvent(clock, ep));
      const page = await store.getBlockedEventsOnSession(ep, 's1', 0, 10);
      expect(page.total).toBe(2);
      expect(page.items.map((i) => i.status).sort()).toEqual(['Deferred', 'Pending']);
      expect(page.items[0]?.originatingId).toBe('origin-message');
    });

    it('getBlockedEventsOnSession resolves a self-originated id to the last message id', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.uploadPendingMessage(
        id('p'),
        's1',
        ep,
        sampleEvent(clock, ep, { originatingMessageId: 'SELF' }),
      );
      const page = await store.getBlockedEventsOnSession(ep, 's1', 0, 10);
      expect(page.items[0]?.originatingId).toBe('last-message');
    });

    it('purgeMessages removes only the target session', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.uploadPendingMessage(id('a'), 's1', ep, sampleEvent(clock, ep));
      await store.uploadPendingMessage(id('b'), 's2', ep, sampleEvent(clock, ep));
      expect(await store.purgeMessages(ep, 's1')).toBe(true);
      expect((await store.getBlockedEventsOnSession(ep, 's1', 0, 10)).total).toBe(0);
      expect((await store.getBlockedEventsOnSession(ep, 's2', 0, 10)).total).toBe(1);
    });

    it('purgeMessages without a session removes every row on the endpoint only', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      const other = id('other');
      await store.uploadPendingMessage(id('a'), 's1', ep, sampleEvent(clock, ep));
      await store.uploadFailedMessage(id('b'), 's2', ep, sampleEvent(clock, ep));
      await store.uploadFailedMessage(id('c'), 's1', other, sampleEvent(clock, other));
      expect(await store.purgeMessages(ep)).toBe(true);
      expect(await store.purgeMessages(ep)).toBe(false);
      expect((await store.downloadEndpointStateCount(ep)).failedCount).toBe(0);
      expect((await store.downloadEndpointStateCount(other)).failedCount).toBe(1);
    });

    it('getBlockedEventsOnSession pages and reports the total on every page', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      for (let i = 0; i < 5; i++) {
        await store.uploadPendingMessage(id(`e${i}`), 's1', ep, sampleEvent(clock, ep));
        clock.advance(1000);
      }
      const pages = await Promise.all(
        [0, 2, 4].map((skip) => store.getBlockedEventsOnSession(ep, 's1', skip, 2)),
      );
      expect(pages.map((p) => p.items.length)).toEqual([2, 2, 1]);
      expect(pages.every((p) => p.total === 5)).toBe(true);
      expect(new Set(pages.flatMap((p) => p.items.map((i) => i.eventId))).size).toBe(5);
      expect((await store.getBlockedEventsOnSession(ep, 's1', -3, 2)).items).toEqual(pages[0]?.items);
    });

    it('getBlockedEventsOnSession caps a non-positive take at the default page size', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      for (let i = 0; i < PaginationLimits.defaultPageSize + 1; i++) {
        await store.uploadPendingMessage(id(`e${i}`), 's1', ep, sampleEvent(clock, ep));
      }
      const zero = await store.getBlockedEventsOnSession(ep, 's1', 0, 0);
      expect(zero.items).toHaveLength(PaginationLimits.defaultPageSize);
      expect(zero.total).toBe(PaginationLimits.defaultPageSize + 1);
      expect((await store.getBlockedEventsOnSession(ep, 's1', 0, -1)).items).toHaveLength(100);
    });

    it('getBlockedEventsOnSession accepts a take above the maximum', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      for (let i = 0; i < 3; i++)
        await store.uploadPendingMessage(id(`e${i}`), 's1', ep, sampleEvent(clock, ep));
      const page = await store.getBlockedEventsOnSession(ep, 's1', 0, PaginationLimits.maxPageSize + 5);
      expect(page.items).toHaveLength(3);
    });

    it('getPendingEventsOnSession returns every pending row on the endpoint', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.uploadPendingMessage(id('a'), 's1', ep, sampleEvent(clock, ep));
      await store.uploadPendingMessage(id('b'), 's2', ep, sampleEvent(clock, ep));
      await store.uploadFailedMessage(id('c'), 's3', ep, sampleEvent(clock, ep));
      const rows = await store.getPendingEventsOnSession(ep);
      expect(rows.map((r) => r.eventId).sort()).toEqual([id('a'), id('b')].sort());
    });

    it('getInvalidEventsOnSession returns publisher-role rows only', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.uploadPendingMessage(
        id('pub'),
        's1',
        ep,
        sampleEvent(clock, ep, { endpointRole: EndpointRole.Publisher }),
      );
      await store.uploadPendingMessage(id('sub'), 's2', ep, sampleEvent(clock, ep));
      expect((await store.getInvalidEventsOnSession(ep)).map((e) => e.eventId)).toEqual([id('pub')]);
    });

    it('removeMessage drops the row from counts and returns false the second time', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.uploadFailedMessage(id('e'), 's1', ep, sampleEvent(clock, ep));
      expect(await store.removeMessage(id('e'), 's1', ep)).toBe(true);
      expect(await store.removeMessage(id('e'), 's1', ep)).toBe(false);
      expect((await store.downloadEndpointStateCount(ep)).failedCount).toBe(0);
    });

    it('archiveFailedEvent takes the row out of every live view', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.uploadFailedMessage(id('e'), 's1', ep, sampleEvent(clock, ep));
      await store.archiveFailedEvent(id('e'), 's1', ep);
      await store.archiveFailedEvent(id('missing'), 's1', ep);
      expect((await store.downloadEndpointStateCount(ep)).failedCount).toBe(0);
      expect(await store.getEndpointErrorList(ep)).toBe('');
      expect((await store.getEventsByFilter({ endpointId: ep }, null, 10)).events).toHaveLength(0);
    });
  });
}
