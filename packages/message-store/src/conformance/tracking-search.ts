import { MessageType } from '@nimbus/core';
import { describe, expect, it } from 'vitest';
import type { MessageTrackingStore } from '../contracts/message-tracking-store.js';
import { MessageAuditType, ResolutionStatus as RS } from '../enums.js';
import { audit, content, sampleEvent, sampleMessage, writeSampleRows } from './fixtures.js';
import type { OpenedStore } from './harness.js';

type Open = () => Promise<OpenedStore<MessageTrackingStore>>;

export function registerSearchCases(open: Open): void {
  describe('search', () => {
    it('getEventsByFilter scopes by endpoint and includes terminal rows', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      const other = id('zz');
      await writeSampleRows(store, clock, ep, [
        [id('a'), 's1', RS.Failed],
        [id('b'), 's1', RS.Completed],
      ]);
      await writeSampleRows(store, clock, other, [[id('c'), 's1', RS.Failed]]);
      const result = await store.getEventsByFilter({
        filter: { endpointId: ep },
        continuationToken: null,
        maxItems: 10,
      });
      expect(result.events.map((e) => e.eventId).sort()).toEqual([id('a'), id('b')].sort());
      const completed = await store.getEventsByFilter({
        filter: { endpointId: ep, resolutionStatus: [RS.Completed] },
        continuationToken: null,
        maxItems: 10,
      });
      expect(completed.events.map((e) => e.eventId)).toEqual([id('b')]);
    });

    it('getEventsByFilter matches the event id by case-insensitive prefix only', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      const eventId = id('Order-123');
      await writeSampleRows(store, clock, ep, [[eventId, 's1', RS.Failed]]);
      const count = async (eventIdFilter: string) =>
        (
          await store.getEventsByFilter({
            filter: { endpointId: ep, eventId: eventIdFilter },
            continuationToken: null,
            maxItems: 10,
          })
        ).events.length;
      expect(await count(eventId.slice(0, eventId.length - 4))).toBe(1);
      expect(await count(eventId.slice(0, eventId.length - 4).toUpperCase())).toBe(1);
      expect(await count('Order-123')).toBe(0);
    });

    it('getEventsByFilter applies session, type, to/from, message type, payload and date filters', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('a'), sessionId: 'sess-a' },
        status: RS.Failed,
        content: sampleEvent(clock, ep, { messageContent: content('{"sku":"ABC-1"}') }),
      });
      clock.advance(60_000);
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('b'), sessionId: 'sess-b' },
        status: RS.Failed,
        content: sampleEvent(clock, ep, {
          eventTypeId: 'Other',
          from: 'erp',
          messageType: MessageType.ErrorResponse,
        }),
      });
      const ids = async (filter: object) =>
        (
          await store.getEventsByFilter({
            filter: { endpointId: ep, ...filter },
            continuationToken: null,
            maxItems: 10,
          })
        ).events.map((e) => e.eventId);
      expect(await ids({ sessionId: 'SESS-A' })).toEqual([id('a')]);
      expect(await ids({ eventTypeId: ['Other'] })).toEqual([id('b')]);
      expect(await ids({ from: 'erp' })).toEqual([id('b')]);
      expect(await ids({ to: ep })).toHaveLength(2);
      expect(await ids({ messageType: MessageType.ErrorResponse })).toEqual([id('b')]);
      expect(await ids({ payload: 'ABC-1' })).toEqual([id('a')]);
      expect(await ids({ payload: 'abc-1' })).toEqual([]);
      expect(await ids({ updatedAtFrom: new Date(clock.now()) })).toEqual([id('b')]);
      expect(await ids({ updatedAtTo: new Date(clock.now() - 1) })).toEqual([id('a')]);
    });

    it('search results omit eventJson without corrupting the stored event', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('e'), sessionId: 's1' },
        status: RS.Failed,
        content: sampleEvent(clock, ep, { messageContent: content('{"big":1}', 'boom') }),
      });
      const found = (
        await store.getEventsByFilter({ filter: { endpointId: ep }, continuationToken: null, maxItems: 10 })
      ).events[0];
      expect(found?.messageContent.eventContent?.eventJson ?? '').toBe('');
      expect(found?.messageContent.eventContent?.eventTypeId).toBe('OrderPlaced');
      expect(found?.messageContent.errorContent?.errorText).toBe('boom');
      expect(found).toMatchObject({
        correlationId: 'corr-1',
        lastMessageId: 'last-message',
        from: 'publisher',
      });
      const stored = await store.getEventInStatus({
        key: { endpointId: ep, eventId: id('e'), sessionId: 's1' },
        status: RS.Failed,
      });
      expect(stored?.messageContent.eventContent?.eventJson).toBe('{"big":1}');
    });

    it('getEventsByFilter pages newest first with continuation tokens until null', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      for (let i = 0; i < 5; i++) {
        await writeSampleRows(store, clock, ep, [[id(`e${i}`), 's1', RS.Failed]]);
        clock.advance(1000);
      }
      const seen: string[] = [];
      let token: string | null = null;
      for (let page = 0; page < 5; page++) {
        const result: Awaited<ReturnType<MessageTrackingStore['getEventsByFilter']>> =
          await store.getEventsByFilter({
            filter: { endpointId: ep },
            continuationToken: token,
            maxItems: 2,
          });
        seen.push(...result.events.map((e) => e.eventId));
        token = result.continuationToken;
        if (token === null) break;
      }
      expect(token).toBeNull();
      expect(seen).toEqual([4, 3, 2, 1, 0].map((i) => id(`e${i}`)));
    });

    it('searchMessages filters history, strips eventJson and matches ids by prefix', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.storeMessage(
        sampleMessage(clock, id('Evt-1'), 'm1', ep, { messageContent: content('{"x":1}', 'err') }),
      );
      await store.storeMessage(sampleMessage(clock, id('Evt-2'), 'm2', ep));
      await store.storeMessage(sampleMessage(clock, id('Evt-3'), 'm3', id('zz')));
      const onEp = await store.searchMessages({
        filter: { endpointId: ep },
        continuationToken: null,
        maxItems: 10,
      });
      expect(onEp.messages).toHaveLength(2);
      expect(onEp.messages.every((m) => (m.messageContent.eventContent?.eventJson ?? '') === '')).toBe(true);
      const first = onEp.messages.find((m) => m.messageId === 'm1');
      expect(first?.messageContent.errorContent?.errorText).toBe('err');
      expect(first?.messageContent.eventContent?.eventTypeId).toBe('OrderPlaced');
      const prefix = id('Evt-1').slice(0, -2);
      expect(
        (
          await store.searchMessages({
            filter: { eventId: prefix.toUpperCase() },
            continuationToken: null,
            maxItems: 10,
          })
        ).messages.length,
      ).toBe(3);
      expect(
        (await store.searchMessages({ filter: { eventId: 'Evt-1' }, continuationToken: null, maxItems: 10 }))
          .messages.length,
      ).toBe(0);
    });

    it('searchMessages applies type, to/from, message type and inclusive enqueued-time bounds', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      const first = new Date(clock.now());
      await store.storeMessage(sampleMessage(clock, id('e1'), 'm1', ep));
      clock.advance(60_000);
      const second = new Date(clock.now());
      await store.storeMessage(
        sampleMessage(clock, id('e2'), 'm2', ep, {
          eventTypeId: 'Other',
          from: 'erp',
          to: 'billing',
          messageType: MessageType.ErrorResponse,
        }),
      );
      const ids = async (filter: object) =>
        (
          await store.searchMessages({
            filter: { endpointId: ep, ...filter },
            continuationToken: null,
            maxItems: 10,
          })
        ).messages.map((m) => m.messageId);
      expect(await ids({ eventTypeId: ['Other'] })).toEqual(['m2']);
      expect(await ids({ eventTypeId: ['OrderPlaced', 'Other'] })).toEqual(['m2', 'm1']);
      expect(await ids({ from: 'erp' })).toEqual(['m2']);
      expect(await ids({ to: 'billing' })).toEqual(['m2']);
      expect(await ids({ messageType: MessageType.ErrorResponse })).toEqual(['m2']);
      expect(await ids({ enqueuedAtFrom: second })).toEqual(['m2']);
      expect(await ids({ enqueuedAtTo: first })).toEqual(['m1']);
      expect(await ids({ enqueuedAtFrom: first, enqueuedAtTo: second })).toEqual(['m2', 'm1']);
      expect(await ids({ enqueuedAtTo: new Date(first.getTime() - 1) })).toEqual([]);
    });

    it('getEventsByFilter applies inclusive enqueued-time bounds', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      const first = sampleEvent(clock, ep);
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('a'), sessionId: 's1' },
        status: RS.Failed,
        content: first,
      });
      clock.advance(60_000);
      const second = sampleEvent(clock, ep);
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('b'), sessionId: 's1' },
        status: RS.Failed,
        content: second,
      });
      const ids = async (filter: object) =>
        (
          await store.getEventsByFilter({
            filter: { endpointId: ep, ...filter },
            continuationToken: null,
            maxItems: 10,
          })
        ).events.map((e) => e.eventId);
      expect(await ids({ enqueuedAtFrom: second.enqueuedTimeUtc })).toEqual([id('b')]);
      expect(await ids({ enqueuedAtTo: first.enqueuedTimeUtc })).toEqual([id('a')]);
      expect(
        await ids({ enqueuedAtFrom: first.enqueuedTimeUtc, enqueuedAtTo: second.enqueuedTimeUtc }),
      ).toEqual([id('b'), id('a')]);
    });

    it('searchAudits filters by auditor prefix and by endpoint, exact or prefix', async () => {
      const { store, clock, id } = await open();
      const x = id('X');
      const at = new Date(clock.now());
      const auditor = id('Auditor');
      await store.storeMessageAudit({
        eventId: id('a'),
        audit: audit(auditor, MessageAuditType.Comment, at),
        endpointId: x,
        eventTypeId: 'OrderPlaced',
      });
      await store.storeMessageAudit({
        eventId: id('b'),
        audit: audit(auditor, MessageAuditType.Skip, at, { accessDenied: true, data: 'd' }),
        endpointId: `${x}Archive`,
      });
      await store.storeMessageAudit({
        eventId: id('c'),
        audit: audit(id('someone'), MessageAuditType.Comment, at),
        endpointId: x,
      });
      const byAuditor = await store.searchAudits({
        filter: { auditorName: auditor.slice(0, -3).toUpperCase() },
        continuationToken: null,
        maxItems: 10,
      });
      expect(byAuditor.audits).toHaveLength(2);
      expect(byAuditor.audits.find((a) => a.eventId === id('b'))?.audit).toMatchObject({
        accessDenied: true,
        data: 'd',
      });
      expect(
        (
          await store.searchAudits({
            filter: { auditorName: 'Auditor' },
            continuationToken: null,
            maxItems: 10,
          })
        ).audits,
      ).toHaveLength(0);
      expect(
        (await store.searchAudits({ filter: { endpointId: x }, continuationToken: null, maxItems: 10 }))
          .audits,
      ).toHaveLength(3);
      const exact = await store.searchAudits({
        filter: { endpointId: x.toUpperCase(), endpointIdExact: true },
        continuationToken: null,
        maxItems: 10,
      });
      expect(exact.audits.map((a) => a.eventId).sort()).toEqual([id('a'), id('c')].sort());
      expect(exact.audits.find((a) => a.eventId === id('a'))).toMatchObject({
        endpointId: x,
        eventTypeId: 'OrderPlaced',
      });
    });

    it('searchAudits finds a literal text in data, comment, auditor or event id, ASCII case-insensitively', async () => {
      const { store, clock, id } = await open();
      const token = id('Needle');
      const at = new Date(clock.now());
      const write = (eventId: string, extra: object, type: MessageAuditType = MessageAuditType.Comment) =>
        store.storeMessageAudit({ eventId, audit: audit(id('ops'), type, at, extra), endpointId: id('ep') });
      await write(id('in-data'), { data: `{"note":"called ${token.toUpperCase()} 100%_"}` });
      await write(id('in-comment'), { comment: `about ${token}` }, MessageAuditType.Skip);
      await write(`${token}-evt`, { data: 'nothing' });
      await write(id('unrelated'), { data: 'called someone else' });
      const found = async (filter: object) =>
        (await store.searchAudits({ filter, continuationToken: null, maxItems: 50 })).audits
          .map((a) => a.eventId)
          .sort();
      expect(await found({ text: token.toLowerCase() })).toEqual(
        [id('in-data'), id('in-comment'), `${token}-evt`].sort(),
      );
      expect(await found({ text: token, auditType: MessageAuditType.Skip })).toEqual([id('in-comment')]);
      // No wildcards: % and _ are literal characters.
      expect(await found({ text: `${token} 100%_` })).toEqual([id('in-data')]);
      expect(await found({ text: `${token}%` })).toEqual([]);
    });
  });
}
