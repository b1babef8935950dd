import { MessageType } from '@nimbus/core';
import { describe, expect, it } from 'vitest';
import type { MessageTrackingStore } from '../contracts/message-tracking-store.js';
import { ResolutionStatus as RS } from '../enums.js';
import { content, getAs, sampleEvent, sampleMessage, uploadAs, writeSampleRows } from './fixtures.js';
import type { OpenedStore } from './harness.js';

type Open = () => Promise<OpenedStore<MessageTrackingStore>>;

const UNRESOLVED = [RS.Pending, RS.Deferred, RS.Failed, RS.DeadLettered, RS.Unsupported];

export function registerLookupCases(open: Open): void {
  describe('lookups: a miss is null, never an error', () => {
    it('every single-row lookup answers null on an empty store', async () => {
      const { store, id } = await open();
      const ep = id('ep');
      for (const status of UNRESOLVED) expect(await getAs(store, status, ep, id('e'), 's1')).toBeNull();
      expect(await store.getEvent({ endpointId: ep, eventId: id('e') })).toBeNull();
      expect(await store.getEventById({ endpointId: ep, id: `${id('e')}_s1` })).toBeNull();
      expect(
        await store.getPendingHandoffByExternalJobId({ endpointId: ep, externalJobId: 'job' }),
      ).toBeNull();
      expect(await store.getMessage({ eventId: id('e'), messageId: 'm1' })).toBeNull();
      expect(await store.getLatestEventRequestMessage(id('e'))).toBeNull();
      expect(await store.getFailedMessage({ endpointId: ep, eventId: id('e') })).toBeNull();
      expect(await store.getDeadletteredMessage({ endpointId: ep, eventId: id('e') })).toBeNull();
    });

    for (const status of UNRESOLVED) {
      it(`get${status}Event treats another status, another session, a removed and an archived row as missing`, async () => {
        const { store, clock, id } = await open();
        const ep = id('ep');
        const other = status === RS.Pending ? RS.Failed : RS.Pending;
        await uploadAs(store, other, id('wrong-status'), 's1', ep, sampleEvent(clock, ep));
        await uploadAs(store, status, id('other-session'), 's2', ep, sampleEvent(clock, ep));
        await uploadAs(store, status, id('removed'), 's1', ep, sampleEvent(clock, ep));
        await uploadAs(store, status, id('archived'), 's1', ep, sampleEvent(clock, ep));
        await store.removeMessage({ endpointId: ep, eventId: id('removed'), sessionId: 's1' });
        await store.archiveFailedEvent({ endpointId: ep, eventId: id('archived'), sessionId: 's1' });
        expect(await getAs(store, status, ep, id('wrong-status'), 's1')).toBeNull();
        expect(await getAs(store, status, ep, id('other-session'), 's1')).toBeNull();
        expect(await getAs(store, status, ep, id('removed'), 's1')).toBeNull();
        expect(await getAs(store, status, ep, id('archived'), 's1')).toBeNull();
        expect(await store.getEvent({ endpointId: ep, eventId: id('removed') })).toBeNull();
        expect(await store.getEventById({ endpointId: ep, id: `${id('archived')}_s1` })).toBeNull();
      });
    }

    it('a row on another endpoint is missing', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await writeSampleRows(store, clock, ep, [[id('e'), 's1', RS.Failed]]);
      expect(
        await store.getEventInStatus({
          key: { endpointId: id('elsewhere'), eventId: id('e'), sessionId: 's1' },
          status: RS.Failed,
        }),
      ).toBeNull();
      expect(await store.getEvent({ endpointId: id('elsewhere'), eventId: id('e') })).toBeNull();
    });

    it('getEvent returns the most recently updated row across sessions', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await writeSampleRows(store, clock, ep, [[id('e'), 's-old', RS.Failed]]);
      clock.advance(1000);
      await writeSampleRows(store, clock, ep, [[id('e'), 's-new', RS.Pending]]);
      clock.advance(1000);
      await writeSampleRows(store, clock, ep, [[id('e'), 's-mid', RS.Deferred]]);
      expect((await store.getEvent({ endpointId: ep, eventId: id('e') }))?.sessionId).toBe('s-mid');
      clock.advance(1000);
      await writeSampleRows(store, clock, ep, [[id('e'), 's-old', RS.Failed]]);
      expect((await store.getEvent({ endpointId: ep, eventId: id('e') }))?.sessionId).toBe('s-old');
    });

    it('getEventById matches the stored id {eventId}_{sessionId}', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await writeSampleRows(store, clock, ep, [
        [id('e'), 's1', RS.Failed],
        [id('e'), 's2', RS.Pending],
      ]);
      expect((await store.getEventById({ endpointId: ep, id: `${id('e')}_s1` }))?.resolutionStatus).toBe(
        RS.Failed,
      );
      expect((await store.getEventById({ endpointId: ep, id: `${id('e')}_s2` }))?.resolutionStatus).toBe(
        RS.Pending,
      );
      expect(await store.getEventById({ endpointId: ep, id: `${id('e')}_s3` })).toBeNull();
    });

    it('a row without a session has the composite id "{eventId}_"', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await writeSampleRows(store, clock, ep, [[id('e'), '', RS.Failed]]);
      expect((await store.getEventById({ endpointId: ep, id: `${id('e')}_` }))?.sessionId).toBe('');
    });

    it('getFailedMessage returns the newest message on the endpoint that carries error content', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      const at = (offset: number) => new Date(clock.now() + offset);
      const err = (messageId: string, offset: number, errorText: string | null, endpointId = ep) =>
        store.storeMessage(
          sampleMessage(clock, id('e'), messageId, endpointId, {
            messageType: errorText === null ? MessageType.ResolutionResponse : MessageType.ErrorResponse,
            enqueuedTimeUtc: at(offset),
            messageContent: content('{}', errorText),
          }),
        );
      await err('old-error', 0, 'first failure');
      await err('new-error', 1000, 'second failure');
      await err('newest-no-error', 2000, null);
      await err('other-endpoint', 3000, 'elsewhere', id('other'));
      const failed = await store.getFailedMessage({ endpointId: ep, eventId: id('e') });
      expect(failed?.messageId).toBe('new-error');
      expect(failed?.messageContent.errorContent?.errorText).toBe('second failure');
    });

    it('getFailedMessage is null when no message on the endpoint carries error content', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.storeMessage(sampleMessage(clock, id('e'), 'm1', ep));
      expect(await store.getFailedMessage({ endpointId: ep, eventId: id('e') })).toBeNull();
    });

    it('getDeadletteredMessage returns the newest message on the endpoint of any type', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.storeMessage(
        sampleMessage(clock, id('e'), 'error', ep, {
          messageType: MessageType.ErrorResponse,
          messageContent: content('{}', 'boom'),
          deadLetterReason: 'MaxDeliveryCountExceeded',
        }),
      );
      await store.storeMessage(
        sampleMessage(clock, id('e'), 'newest', ep, {
          messageType: MessageType.RetryRequest,
          enqueuedTimeUtc: new Date(clock.now() + 1000),
        }),
      );
      expect((await store.getDeadletteredMessage({ endpointId: ep, eventId: id('e') }))?.messageId).toBe(
        'newest',
      );
    });
  });

  describe('optional fields round-trip exactly', () => {
    it('null stays null and "" stays "" on a resolver row', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      const nulls = {
        correlationId: null,
        reason: null,
        to: null,
        from: null,
        originatingFrom: null,
        deadLetterReason: null,
        deadLetterErrorDescription: null,
        parentMessageId: null,
        eventTypeId: null,
        lastMessageId: null,
        originatingMessageId: null,
      };
      const empties = Object.fromEntries(Object.keys(nulls).map((k) => [k, '']));
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('nulls'), sessionId: 's1' },
        status: RS.Failed,
        content: sampleEvent(clock, ep, nulls),
      });
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('empties'), sessionId: 's1' },
        status: RS.Failed,
        content: sampleEvent(clock, ep, empties),
      });
      expect(
        await store.getEventInStatus({
          key: { endpointId: ep, eventId: id('nulls'), sessionId: 's1' },
          status: RS.Failed,
        }),
      ).toMatchObject(nulls);
      expect(
        await store.getEventInStatus({
          key: { endpointId: ep, eventId: id('empties'), sessionId: 's1' },
          status: RS.Failed,
        }),
      ).toMatchObject(empties);
    });

    it('omitted optional fields read back as null; numbers and dates round-trip', async () => {
      const { store, id } = await open();
      const ep = id('ep');
      const enqueued = new Date(Date.UTC(2026, 6, 10, 11, 59, 59, 123));
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('e'), sessionId: 's1' },
        status: RS.Failed,
        content: {
          enqueuedTimeUtc: enqueued,
          messageType: MessageType.ErrorResponse,
          retryCount: 0,
          retryLimit: 5,
          queueTimeMs: 12,
        },
      });
      const row = await store.getEventInStatus({
        key: { endpointId: ep, eventId: id('e'), sessionId: 's1' },
        status: RS.Failed,
      });
      expect(row).toMatchObject({
        enqueuedTimeUtc: enqueued,
        retryCount: 0,
        retryLimit: 5,
        queueTimeMs: 12,
        processingTimeMs: null,
        correlationId: null,
        reason: null,
        expectedBy: null,
        pendingSubStatus: null,
        endpointRole: 'Subscriber',
        messageContent: { eventContent: null, errorContent: null },
      });
    });

    it('null stays null and "" stays "" on a history message', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.storeMessage(
        sampleMessage(clock, id('e'), 'nulls', ep, { from: null, to: null, sessionId: null }),
      );
      await store.storeMessage(
        sampleMessage(clock, id('e'), 'empties', ep, { from: '', to: '', sessionId: '' }),
      );
      expect(await store.getMessage({ eventId: id('e'), messageId: 'nulls' })).toMatchObject({
        from: null,
        to: null,
        sessionId: null,
      });
      expect(await store.getMessage({ eventId: id('e'), messageId: 'empties' })).toMatchObject({
        from: '',
        to: '',
        sessionId: '',
      });
    });

    it('handoff fields round-trip on a pending row', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      const handoff = {
        pendingSubStatus: 'Handoff',
        handoffReason: 'awaiting ERP',
        externalJobId: 'job-7',
        expectedBy: new Date(Date.UTC(2026, 6, 11, 8, 30, 0, 250)),
      };
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('e'), sessionId: 's1' },
        status: RS.Pending,
        content: sampleEvent(clock, ep, { messageType: MessageType.PendingHandoffResponse, ...handoff }),
      });
      expect(
        await store.getEventInStatus({
          key: { endpointId: ep, eventId: id('e'), sessionId: 's1' },
          status: RS.Pending,
        }),
      ).toMatchObject(handoff);
    });

    it('handoff fields round-trip on a history message', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      const handoff = {
        pendingSubStatus: 'Handoff',
        handoffReason: 'awaiting ERP',
        externalJobId: 'job-7',
        expectedBy: new Date(Date.UTC(2026, 6, 11, 8, 30)),
      };
      await store.storeMessage(
        sampleMessage(clock, id('e'), 'm1', ep, {
          messageType: MessageType.PendingHandoffResponse,
          ...handoff,
        }),
      );
      expect(await store.getMessage({ eventId: id('e'), messageId: 'm1' })).toMatchObject(handoff);
    });

    it('a caller mutating what it wrote or read does not change the stored row', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      const input = { ...sampleEvent(clock, ep), reason: 'original' };
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('e'), sessionId: 's1' },
        status: RS.Failed,
        content: input,
      });
      input.reason = 'mutated';
      const read = await store.getEventInStatus({
        key: { endpointId: ep, eventId: id('e'), sessionId: 's1' },
        status: RS.Failed,
      });
      (read as { reason: string | null }).reason = 'mutated too';
      expect(
        (
          await store.getEventInStatus({
            key: { endpointId: ep, eventId: id('e'), sessionId: 's1' },
            status: RS.Failed,
          })
        )?.reason,
      ).toBe('original');
    });
  });
}
