import { MessageType } from '@nimbus/core';
import { describe, expect, it } from 'vitest';
import type { MessageTrackingStore } from '../contracts/message-tracking-store.js';
import { ResolutionStatus as RS } from '../enums.js';
import { sampleEvent, sampleMessage } from './fixtures.js';
import type { OpenedStore } from './harness.js';

type Open = () => Promise<OpenedStore<MessageTrackingStore>>;

export function registerBatchCases(open: Open): void {
  describe('batch writes', () => {
    it('writeBatch stores history and statuses together and answers per entry, in order', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      const key = { endpointId: ep, eventId: id('e'), sessionId: 's1' };
      const result = await store.writeBatch({
        messages: [sampleMessage(clock, key.eventId, 'm1', ep), sampleMessage(clock, key.eventId, 'm1', ep)],
        statuses: [{ key, status: RS.Pending, content: sampleEvent(clock, ep) }],
      });
      expect(result).toEqual({ messagesStored: [true, false], statusesWritten: [true] });
      expect(await store.getMessage({ eventId: key.eventId, messageId: 'm1' })).not.toBeNull();
      expect((await store.getEventInStatus({ key: key, status: RS.Pending }))?.lastMessageId).toBe(
        'last-message',
      );
      expect(await store.writeBatch({})).toEqual({ messagesStored: [], statusesWritten: [] });
    });

    it('several writes of one key inside a batch apply in order, each guarded against the previous', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      const key = { endpointId: ep, eventId: id('e'), sessionId: 's1' };
      const row = (messageType: MessageType, lastMessageId: string) =>
        sampleEvent(clock, ep, { messageType, lastMessageId });
      const written = await store.writeStatuses([
        { key, status: RS.Pending, content: row(MessageType.EventRequest, 'req') },
        { key, status: RS.Completed, content: row(MessageType.ResolutionResponse, 'done') },
        // A late copy of the request inside the same batch: refused against the Completed row.
        { key, status: RS.Pending, content: row(MessageType.EventRequest, 'req-copy') },
      ]);
      expect(written).toEqual([true, true, false]);
      const stored = await store.getEvent(key);
      expect(stored?.resolutionStatus).toBe(RS.Completed);
      expect(stored?.lastMessageId).toBe('done');
    });

    it('a guard refusal inside a batch leaves the other rows of the batch written', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      const done = { endpointId: ep, eventId: id('done'), sessionId: 's1' };
      const fresh = { endpointId: ep, eventId: id('fresh'), sessionId: 's2' };
      const failed = { endpointId: ep, eventId: id('failed'), sessionId: 's3' };
      await store.writeStatus({
        key: done,
        status: RS.Completed,
        content: sampleEvent(clock, ep, { messageType: MessageType.ResolutionResponse }),
      });
      const result = await store.writeBatch({
        messages: [sampleMessage(clock, fresh.eventId, 'm-fresh', ep)],
        statuses: [
          { key: fresh, status: RS.Pending, content: sampleEvent(clock, ep) },
          { key: done, status: RS.Pending, content: sampleEvent(clock, ep) },
          {
            key: failed,
            status: RS.Failed,
            content: sampleEvent(clock, ep, { messageType: MessageType.ErrorResponse }),
          },
        ],
      });
      expect(result.statusesWritten).toEqual([true, false, true]);
      expect(result.messagesStored).toEqual([true]);
      expect(await store.getEventInStatus({ key: fresh, status: RS.Pending })).not.toBeNull();
      expect(await store.getEventInStatus({ key: failed, status: RS.Failed })).not.toBeNull();
      expect((await store.getEvent(done))?.resolutionStatus).toBe(RS.Completed);
    });

    it('a reserved endpoint id anywhere in a batch refuses the whole batch before anything is written', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      const key = { endpointId: ep, eventId: id('e'), sessionId: 's1' };
      await expect(
        store.writeBatch({
          messages: [sampleMessage(clock, key.eventId, 'm1', 'messages')],
          statuses: [{ key, status: RS.Pending, content: sampleEvent(clock, ep) }],
        }),
      ).rejects.toThrow(/messages/);
      expect(await store.getEvent(key)).toBeNull();
      expect(await store.getMessage({ eventId: key.eventId, messageId: 'm1' })).toBeNull();
    });

    it('a redelivered batch does not wind a row back: a copy whose history is stored writes no status again', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      const key = { endpointId: ep, eventId: id('e'), sessionId: 's1' };
      const failed = sampleEvent(clock, ep, {
        messageType: MessageType.ErrorResponse,
        lastMessageId: 'm-error',
      });
      const skipped = sampleEvent(clock, ep, {
        messageType: MessageType.SkipResponse,
        lastMessageId: 'm-skip',
      });
      const batch = {
        messages: [
          sampleMessage(clock, key.eventId, 'm-error', ep),
          sampleMessage(clock, key.eventId, 'm-skip', ep),
        ],
        statuses: [
          { key, status: RS.Failed, content: failed },
          { key, status: RS.Skipped, content: skipped },
        ],
      };
      expect(await store.writeBatch(batch)).toEqual({
        messagesStored: [true, true],
        statusesWritten: [true, true],
      });
      // The same messages again (a Resolver killed between its store commit and its settlement).
      expect(await store.writeBatch(batch)).toEqual({
        messagesStored: [false, false],
        statusesWritten: [false, false],
      });
      expect((await store.getEvent(key))?.resolutionStatus).toBe(RS.Skipped);
      // Only the copy's own status is left out: a new message in the same batch is written.
      const later = sampleEvent(clock, ep, {
        messageType: MessageType.ResolutionResponse,
        lastMessageId: 'm-done',
      });
      const mixed = await store.writeBatch({
        messages: [
          sampleMessage(clock, key.eventId, 'm-skip', ep),
          sampleMessage(clock, key.eventId, 'm-done', ep),
        ],
        statuses: [
          { key, status: RS.Skipped, content: skipped },
          { key, status: RS.Completed, content: later },
        ],
      });
      expect(mixed).toEqual({ messagesStored: [false, true], statusesWritten: [false, true] });
      expect((await store.getEvent(key))?.lastMessageId).toBe('m-done');
    });

    it('concurrent batch writes racing single writes lose no update and leave no stale row', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      const keys = Array.from({ length: 40 }, (_, i) => ({
        endpointId: ep,
        eventId: id(`r${i}`),
        sessionId: `s${i % 7}`,
      }));
      const request = (tag: string) =>
        sampleEvent(clock, ep, { messageType: MessageType.EventRequest, lastMessageId: tag });
      const outcome = (tag: string) =>
        sampleEvent(clock, ep, { messageType: MessageType.ResolutionResponse, lastMessageId: tag });
      const completions = keys.map((key) => ({ key, status: RS.Completed, content: outcome('done') }));
      const lateRequests = [...keys]
        .reverse()
        .map((key) => ({ key, status: RS.Pending, content: request('batch-req') }));
      const [completedResults, , ...singles] = await Promise.all([
        store.writeStatuses(completions),
        store.writeBatch({ statuses: lateRequests }),
        ...keys.map((key) => store.writeStatus({ key, status: RS.Pending, content: request('single-req') })),
        store.writeBatch({
          statuses: keys
            .slice(0, 20)
            .map((key) => ({ key, status: RS.Pending, content: request('batch-req-2') })),
        }),
      ]);
      // Outcomes always land: no lost update.
      expect(completedResults).toEqual(keys.map(() => true));
      expect(singles.length).toBe(keys.length + 1);
      // No request that raced the outcome survives it: no stale row.
      for (const key of keys) {
        const row = await store.getEvent(key);
        expect(row?.resolutionStatus, key.eventId).toBe(RS.Completed);
        expect(row?.lastMessageId, key.eventId).toBe('done');
      }
    });
  });
}
