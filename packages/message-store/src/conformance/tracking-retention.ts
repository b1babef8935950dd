import { describe, expect, it } from 'vitest';
import type { MessageTrackingStore } from '../contracts/message-tracking-store.js';
import { MessageAuditType, ResolutionStatus } from '../enums.js';
import { FIXED_RETENTION_MS, type RetentionOptions } from '../retention.js';
import { DAY, HOUR, sampleEvent, sampleMessage, writeSampleRows } from './fixtures.js';
import type { OpenedStore } from './harness.js';

type Open = (retention?: RetentionOptions) => Promise<OpenedStore<MessageTrackingStore>>;

export function registerRetentionCases(open: Open): void {
  describe('retention', () => {
    it('unresolved rows are kept forever by default', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await writeSampleRows(store, clock, ep, [[id('e'), 's1', ResolutionStatus.Failed]]);
      clock.advance(3650 * DAY);
      expect((await store.sweepExpired()).unresolvedRows).toBe(0);
      expect(
        await store.getEventInStatus({
          key: { endpointId: ep, eventId: id('e'), sessionId: 's1' },
          status: ResolutionStatus.Failed,
        }),
      ).not.toBeNull();
    });

    it('a configured window expires unresolved rows, and every rewrite slides it forward', async () => {
      const { store, clock, id } = await open({ unresolvedRetentionDays: 1 });
      const ep = id('ep');
      await writeSampleRows(store, clock, ep, [
        [id('e'), 's1', ResolutionStatus.Failed],
        [id('other'), 's1', ResolutionStatus.Pending],
      ]);
      clock.advance(23 * HOUR);
      await writeSampleRows(store, clock, ep, [[id('e'), 's1', ResolutionStatus.Failed]]);
      clock.advance(2 * HOUR);
      expect(await store.sweepExpired()).toMatchObject({ unresolvedRows: 1 });
      expect(
        await store.getEventInStatus({
          key: { endpointId: ep, eventId: id('other'), sessionId: 's1' },
          status: ResolutionStatus.Pending,
        }),
      ).toBeNull();
      expect(
        await store.getEventInStatus({
          key: { endpointId: ep, eventId: id('e'), sessionId: 's1' },
          status: ResolutionStatus.Failed,
        }),
      ).not.toBeNull();
      clock.advance(22 * HOUR);
      expect((await store.sweepExpired()).unresolvedRows).toBe(1);
      expect(
        await store.getEventInStatus({
          key: { endpointId: ep, eventId: id('e'), sessionId: 's1' },
          status: ResolutionStatus.Failed,
        }),
      ).toBeNull();
    });

    it('terminal rows expire after 30 days, also when unresolved retention is unlimited', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await writeSampleRows(store, clock, ep, [
        [id('done'), 's1', ResolutionStatus.Completed],
        [id('skipped'), 's1', ResolutionStatus.Skipped],
      ]);
      clock.advance(FIXED_RETENTION_MS.terminalRows - 1);
      expect((await store.sweepExpired()).terminalRows).toBe(0);
      clock.advance(1);
      expect((await store.sweepExpired()).terminalRows).toBe(2);
      expect(await store.getEvent({ endpointId: ep, eventId: id('done') })).toBeNull();
    });

    it('removed rows are deleted 60 seconds after removal', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await writeSampleRows(store, clock, ep, [[id('e'), 's1', ResolutionStatus.Failed]]);
      await store.removeMessage({ endpointId: ep, eventId: id('e'), sessionId: 's1' });
      clock.advance(59_000);
      expect((await store.sweepExpired()).softDeletedRows).toBe(0);
      clock.advance(1_000);
      expect((await store.sweepExpired()).softDeletedRows).toBe(1);
    });

    it('archived rows are deleted 30 days after archiving', async () => {
      const { store, clock, id } = await open({ unresolvedRetentionDays: 365 });
      const ep = id('ep');
      await writeSampleRows(store, clock, ep, [[id('e'), 's1', ResolutionStatus.Failed]]);
      await store.archiveFailedEvent({ endpointId: ep, eventId: id('e'), sessionId: 's1' });
      clock.advance(29 * DAY);
      expect((await store.sweepExpired()).archivedRows).toBe(0);
      clock.advance(DAY);
      expect(await store.sweepExpired()).toMatchObject({ archivedRows: 1, unresolvedRows: 0 });
    });

    it('history messages expire after 90 days and audits after a year', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.storeMessage(sampleMessage(clock, id('e'), 'm1', ep));
      await store.storeMessageAudit({
        eventId: id('e'),
        audit: {
          auditorName: 'a',
          auditType: MessageAuditType.Comment,
          auditTimestamp: new Date(clock.now()),
        },
      });
      clock.advance(FIXED_RETENTION_MS.messages - 1);
      expect(await store.sweepExpired()).toMatchObject({ messages: 0, audits: 0 });
      clock.advance(1);
      expect(await store.sweepExpired()).toMatchObject({ messages: 1, audits: 0 });
      expect(await store.getMessage({ eventId: id('e'), messageId: 'm1' })).toBeNull();
      clock.advance(FIXED_RETENTION_MS.audits - FIXED_RETENTION_MS.messages);
      expect((await store.sweepExpired()).audits).toBe(1);
      expect(await store.getMessageAudits(id('e'))).toEqual([]);
    });

    it('sweepExpired(now) uses the given instant instead of the clock', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await writeSampleRows(store, clock, ep, [[id('e'), 's1', ResolutionStatus.Completed]]);
      expect((await store.sweepExpired(new Date(clock.now() + 31 * DAY))).terminalRows).toBe(1);
    });
  });

  describe('reserved endpoint ids', () => {
    for (const reserved of [
      'subscriptions',
      'messages',
      'audits',
      'eventschemas',
      'eventreports',
      'accesscontrol',
      'Metadata',
      'inbox',
    ]) {
      it(`a status write to endpoint '${reserved}' is rejected`, async () => {
        const { store, clock } = await open();
        await expect(
          store.writeStatus({
            key: { endpointId: reserved, eventId: 'e', sessionId: 's1' },
            status: ResolutionStatus.Pending,
            content: sampleEvent(clock, reserved),
          }),
        ).rejects.toMatchObject({
          code: 'ReservedEndpointId',
        });
      });
    }

    it('every other write that can create data for an endpoint refuses a reserved id', async () => {
      const { store, clock } = await open();
      const refused = { code: 'ReservedEndpointId' };
      const audit = {
        auditorName: 'op',
        auditTimestamp: new Date(clock.now()),
        auditType: MessageAuditType.Comment,
      };
      await expect(store.storeMessage(sampleMessage(clock, 'e', 'm1', 'messages'))).rejects.toMatchObject(
        refused,
      );
      await expect(store.storeMessages([sampleMessage(clock, 'e', 'm2', 'inbox')])).rejects.toMatchObject(
        refused,
      );
      await expect(
        store.storeMessageAudit({ eventId: 'e', audit, endpointId: 'audits' }),
      ).rejects.toMatchObject(refused);
      await expect(
        store.setEventReport({
          endpointId: 'eventreports',
          eventId: 'e',
          isReported: true,
          reportedBy: 'op',
          ticketId: null,
        }),
      ).rejects.toMatchObject(refused);
      expect(await store.getMessage({ eventId: 'e', messageId: 'm1' })).toBeNull();
      expect(await store.getMessageAudits('e')).toEqual([]);
    });

    it('the comparison is case-sensitive: Messages and metadata are ordinary endpoints', async () => {
      const { store, clock } = await open();
      expect(
        await store.writeStatus({
          key: { endpointId: 'Messages', eventId: 'e', sessionId: 's1' },
          status: ResolutionStatus.Pending,
          content: sampleEvent(clock, 'Messages'),
        }),
      ).toBe(true);
      expect(
        await store.writeStatus({
          key: { endpointId: 'metadata', eventId: 'e', sessionId: 's1' },
          status: ResolutionStatus.Pending,
          content: sampleEvent(clock, 'metadata'),
        }),
      ).toBe(true);
    });

    it('an empty endpoint id or event id is rejected', async () => {
      const { store, clock } = await open();
      await expect(
        store.writeStatus({
          key: { endpointId: '', eventId: 'e', sessionId: 's1' },
          status: ResolutionStatus.Pending,
          content: sampleEvent(clock, ''),
        }),
      ).rejects.toMatchObject({
        code: 'InvalidArgument',
      });
      await expect(
        store.writeStatus({
          key: { endpointId: 'ep', eventId: '', sessionId: 's1' },
          status: ResolutionStatus.Failed,
          content: sampleEvent(clock, 'ep'),
        }),
      ).rejects.toMatchObject({
        code: 'InvalidArgument',
      });
    });
  });
}
