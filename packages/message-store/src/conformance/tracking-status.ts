import { MessageType } from '@nimbus/core';
import { describe, expect, it } from 'vitest';
import type { MessageTrackingStore } from '../contracts/message-tracking-store.js';
import { HANDOFF_SUB_STATUS, ResolutionStatus as RS } from '../enums.js';
import { content, getAs, sampleEvent, uploadAs, writeSampleRows } from './fixtures.js';
import type { OpenedStore } from './harness.js';

type Open = () => Promise<OpenedStore<MessageTrackingStore>>;

export function registerStatusWriteCases(open: Open): void {
  describe('status writes and handoff rows', () => {
    it('uploadPending then getPendingEvent returns the event', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      expect(await uploadAs(store, RS.Pending, id('e'), 's1', ep, sampleEvent(clock, ep))).toBe(true);
      const row = await store.getEventInStatus({
        key: { endpointId: ep, eventId: id('e'), sessionId: 's1' },
        status: RS.Pending,
      });
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
      await writeSampleRows(store, clock, ep, [[id('plain'), 's1', RS.Pending]]);
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
      await writeSampleRows(store, clock, ep, [[id('plain'), 's1', RS.Pending]]);
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
      await writeSampleRows(store, clock, ep, [
        [id('e'), 's1', RS.Failed],
        [id('e'), 's1', RS.Failed],
      ]);
      expect((await store.downloadEndpointStateCount(ep)).failedCount).toBe(1);
    });

    it('a status transition replaces the previous status (Pending then Completed)', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await writeSampleRows(store, clock, ep, [[id('e'), 's1', RS.Pending]]);
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
      await writeSampleRows(store, clock, ep, [[id('done'), 's1', RS.Completed]]);
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
      await writeSampleRows(store, clock, ep, [[id('native'), 's1', RS.Failed]]);
      expect(
        await store.getEventInStatus({
          key: { endpointId: ep, eventId: id('ce'), sessionId: 's1' },
          status: RS.Failed,
        }),
      ).toMatchObject(ce);
      expect(
        await store.getEventInStatus({
          key: { endpointId: ep, eventId: id('native'), sessionId: 's1' },
          status: RS.Failed,
        }),
      ).toMatchObject({
        cloudEventId: null,
        cloudEventSource: null,
        cloudEventType: null,
        cloudEventSubject: null,
      });
    });
  });
}
