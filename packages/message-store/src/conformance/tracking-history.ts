import { MessageType } from '@nimbus/core';
import { describe, expect, it } from 'vitest';
import type { MessageTrackingStore } from '../contracts/message-tracking-store.js';
import { MessageAuditType } from '../enums.js';
import { audit, content, sampleMessage } from './fixtures.js';
import type { OpenedStore } from './harness.js';

type Open = () => Promise<OpenedStore<MessageTrackingStore>>;

export function registerHistoryAndAuditCases(open: Open): void {
  describe('per-message history', () => {
    it('storeMessage then getMessage round-trips ids and CloudEvent identity', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      const ce = {
        cloudEventId: 'ce',
        cloudEventSource: '/src',
        cloudEventType: 't',
        cloudEventSubject: 's',
      };
      expect(await store.storeMessage(sampleMessage(clock, id('e'), 'm1', ep, ce))).toBe(true);
      expect(await store.getMessage({ eventId: id('e'), messageId: 'm1' })).toMatchObject({
        eventId: id('e'),
        messageId: 'm1',
        ...ce,
      });
      await store.storeMessage(sampleMessage(clock, id('e'), 'm2', ep));
      expect(await store.getMessage({ eventId: id('e'), messageId: 'm2' })).toMatchObject({
        cloudEventId: null,
        cloudEventSubject: null,
      });
    });

    it('the first write of a (eventId, messageId) wins', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.storeMessage(sampleMessage(clock, id('e'), 'm1', ep, { correlationId: 'first' }));
      expect(
        await store.storeMessage(sampleMessage(clock, id('e'), 'm1', ep, { correlationId: 'second' })),
      ).toBe(false);
      expect((await store.getMessage({ eventId: id('e'), messageId: 'm1' }))?.correlationId).toBe('first');
    });

    it('getEventHistory lists the event messages oldest first; removeStoredMessage deletes one', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      const at = (offset: number) => ({ enqueuedTimeUtc: new Date(clock.now() + offset) });
      await store.storeMessage(sampleMessage(clock, id('e'), 'second', ep, at(1000)));
      await store.storeMessage(sampleMessage(clock, id('e'), 'first', ep, at(0)));
      await store.storeMessage(sampleMessage(clock, id('other'), 'x', ep, at(0)));
      expect((await store.getEventHistory(id('e'))).map((m) => m.messageId)).toEqual(['first', 'second']);
      await store.removeStoredMessage({ eventId: id('e'), messageId: 'first' });
      await store.removeStoredMessage({ eventId: id('e'), messageId: 'never-existed' });
      expect((await store.getEventHistory(id('e'))).map((m) => m.messageId)).toEqual(['second']);
    });

    it('getLatestEventRequestMessage returns the newest request that carries a payload', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      const msg = (messageId: string, type: MessageType, json: string, offset: number) =>
        sampleMessage(clock, id('e'), messageId, ep, {
          messageType: type,
          messageContent: content(json),
          enqueuedTimeUtc: new Date(clock.now() + offset),
        });
      await store.storeMessage(msg('m1', MessageType.EventRequest, '{"v":1}', 0));
      await store.storeMessage(msg('m2', MessageType.ResubmissionRequest, '{"v":2}', 1000));
      await store.storeMessage(msg('m3', MessageType.PendingHandoffResponse, '{"v":3}', 2000));
      await store.storeMessage(msg('m4', MessageType.EventRequest, '', 3000));
      expect(
        (await store.getLatestEventRequestMessage(id('e')))?.messageContent.eventContent?.eventJson,
      ).toBe('{"v":2}');
    });

    it('getLatestEventRequestMessage is null when no request carries a payload', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.storeMessage(
        sampleMessage(clock, id('e'), 'm1', ep, { messageType: MessageType.PendingHandoffResponse }),
      );
      expect(await store.getLatestEventRequestMessage(id('e'))).toBeNull();
    });
  });

  describe('audit trail and event reports', () => {
    it('storeMessageAudit appends; getMessageAudits returns them oldest first', async () => {
      const { store, clock, id } = await open();
      await store.storeMessageAudit({
        eventId: id('e'),
        audit: audit('bob', MessageAuditType.Skip, new Date(clock.now() + 1000)),
      });
      await store.storeMessageAudit({
        eventId: id('e'),
        audit: audit('alice', MessageAuditType.Comment, new Date(clock.now())),
      });
      expect((await store.getMessageAudits(id('e'))).map((a) => a.auditorName)).toEqual(['alice', 'bob']);
    });

    it('audit accessDenied, data, ids and CloudEvent fields round-trip', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      const fields = {
        accessDenied: true,
        data: '{"changed":true}',
        comment: 'looked at it',
        cloudEventId: 'ce',
        cloudEventSource: '/s',
        cloudEventType: 't',
        cloudEventSubject: 'sub',
      };
      await store.storeMessageAudit({
        eventId: id('e'),
        audit: audit('alice', MessageAuditType.Resubmit, new Date(clock.now()), fields),
        endpointId: ep,
        eventTypeId: 'OrderPlaced',
      });
      expect((await store.getMessageAudits(id('e')))[0]).toMatchObject({
        ...fields,
        eventId: id('e'),
        endpointId: ep,
      });
    });

    it('an audit written without the newer fields reads accessDenied false and data null', async () => {
      const { store, clock, id } = await open();
      await store.storeMessageAudit({
        eventId: id('e'),
        audit: audit('alice', MessageAuditType.Comment, new Date(clock.now())),
      });
      expect((await store.getMessageAudits(id('e')))[0]).toMatchObject({
        accessDenied: false,
        data: null,
        comment: null,
        endpointId: null,
        cloudEventId: null,
      });
    });

    it('getResubmitCounts counts allowed resubmits per event on the endpoint', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      const at = new Date(clock.now());
      await store.storeMessageAudit({
        eventId: id('a'),
        audit: audit('u', MessageAuditType.Resubmit, at),
        endpointId: ep,
      });
      await store.storeMessageAudit({
        eventId: id('a'),
        audit: audit('u', MessageAuditType.ResubmitWithChanges, at),
        endpointId: ep,
      });
      await store.storeMessageAudit({
        eventId: id('a'),
        audit: audit('u', MessageAuditType.Resubmit, at, { accessDenied: true }),
        endpointId: ep,
      });
      await store.storeMessageAudit({
        eventId: id('a'),
        audit: audit('u', MessageAuditType.Skip, at),
        endpointId: ep,
      });
      await store.storeMessageAudit({
        eventId: id('b'),
        audit: audit('u', MessageAuditType.Comment, at),
        endpointId: ep,
      });
      const counts = await store.getResubmitCounts({ endpointId: ep, eventIds: [id('a'), id('b')] });
      expect([...counts.entries()]).toEqual([[id('a'), 2]]);
      expect((await store.getResubmitCounts({ endpointId: ep, eventIds: [] })).size).toBe(0);
      expect((await store.getResubmitCounts({ endpointId: id('other'), eventIds: [id('a')] })).size).toBe(0);
    });

    it('setEventReport round-trips and updates in place; clearing drops the ticket', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.setEventReport({
        endpointId: ep,
        eventId: id('e'),
        isReported: true,
        reportedBy: 'alice',
        ticketId: 'T-1',
      });
      expect(
        (await store.getEventReports({ endpointId: ep, eventIds: [id('e')] })).get(id('e')),
      ).toMatchObject({
        isReported: true,
        reportedBy: 'alice',
        ticketId: 'T-1',
        reportedAtUtc: new Date(clock.now()),
      });
      await store.setEventReport({
        endpointId: ep,
        eventId: id('e'),
        isReported: true,
        reportedBy: 'bob',
        ticketId: 'T-2',
      });
      const reports = await store.getEventReports({ endpointId: ep, eventIds: [id('e'), id('e'), ''] });
      expect(reports.size).toBe(1);
      expect(reports.get(id('e'))).toMatchObject({ reportedBy: 'bob', ticketId: 'T-2' });
      await store.setEventReport({
        endpointId: ep,
        eventId: id('e'),
        isReported: false,
        reportedBy: 'bob',
        ticketId: 'T-2',
      });
      expect(
        (await store.getEventReports({ endpointId: ep, eventIds: [id('e')] })).get(id('e')),
      ).toMatchObject({
        isReported: false,
        ticketId: null,
      });
    });

    it('event reports are keyed by the pair, not a joined string, and scoped by endpoint', async () => {
      const { store, id } = await open();
      const p = id('p');
      await store.setEventReport({
        endpointId: `${p}_x`,
        eventId: 'y',
        isReported: true,
        reportedBy: null,
        ticketId: null,
      });
      expect((await store.getEventReports({ endpointId: p, eventIds: ['x_y'] })).size).toBe(0);
      expect((await store.getEventReports({ endpointId: `${p}_x`, eventIds: ['y'] })).get('y')).toMatchObject(
        { ticketId: null },
      );
      expect((await store.getEventReports({ endpointId: id('other'), eventIds: ['y'] })).size).toBe(0);
      expect((await store.getEventReports({ endpointId: p, eventIds: [] })).size).toBe(0);
    });

    it('setEventReport rejects an empty endpoint or event id', async () => {
      const { store, id } = await open();
      await expect(
        store.setEventReport({
          endpointId: '',
          eventId: id('e'),
          isReported: true,
          reportedBy: null,
          ticketId: null,
        }),
      ).rejects.toMatchObject({
        code: 'InvalidArgument',
      });
      await expect(
        store.setEventReport({
          endpointId: id('ep'),
          eventId: '',
          isReported: true,
          reportedBy: null,
          ticketId: null,
        }),
      ).rejects.toMatchObject({
        code: 'InvalidArgument',
      });
    });
  });
}
