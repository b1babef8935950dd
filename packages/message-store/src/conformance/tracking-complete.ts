import { MessageType } from '@nimbus/core';
import { describe, expect, it } from 'vitest';
import type { MessageTrackingStore } from '../contracts/message-tracking-store.js';
import { ResolutionStatus } from '../enums.js';
import { sampleEvent } from './fixtures.js';
import type { OpenedStore } from './harness.js';

type Open = () => Promise<OpenedStore<MessageTrackingStore>>;

export function registerTryCompleteCases(open: Open): void {
  describe('tryCompletePendingMessage', () => {
    const completion = (clock: OpenedStore<MessageTrackingStore>['clock'], ep: string) =>
      sampleEvent(clock, ep, {
        messageType: MessageType.Unknown,
        lastMessageId: 'reconcile',
        reason: 'reconciled',
      });

    it('completes a Pending row whose last message id matches', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.uploadPendingMessage(id('e'), 's1', ep, sampleEvent(clock, ep, { lastMessageId: 'm1' }));
      expect(await store.tryCompletePendingMessage(id('e'), 's1', ep, 'm1', completion(clock, ep))).toBe(
        true,
      );
      const row = await store.getEventById(ep, `${id('e')}_s1`);
      expect(row?.resolutionStatus).toBe(ResolutionStatus.Completed);
      expect(row?.reason).toBe('reconciled');
      expect(await store.getPendingEvent(ep, id('e'), 's1')).toBeNull();
    });

    it('null expected id matches a row whose last message id is null', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.uploadPendingMessage(id('e'), 's1', ep, sampleEvent(clock, ep, { lastMessageId: null }));
      expect(await store.tryCompletePendingMessage(id('e'), 's1', ep, null, completion(clock, ep))).toBe(
        true,
      );
    });

    it('null expected id does not match a row with a last message id, and vice versa', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.uploadPendingMessage(id('a'), 's1', ep, sampleEvent(clock, ep, { lastMessageId: 'm1' }));
      await store.uploadPendingMessage(id('b'), 's1', ep, sampleEvent(clock, ep, { lastMessageId: null }));
      expect(await store.tryCompletePendingMessage(id('a'), 's1', ep, null, completion(clock, ep))).toBe(
        false,
      );
      expect(await store.tryCompletePendingMessage(id('b'), 's1', ep, 'm1', completion(clock, ep))).toBe(
        false,
      );
    });

    it('refuses a missing row', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      expect(await store.tryCompletePendingMessage(id('e'), 's1', ep, 'm1', completion(clock, ep))).toBe(
        false,
      );
      expect(await store.getEvent(ep, id('e'))).toBeNull();
    });

    it('refuses a row that is no longer Pending', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.uploadFailedMessage(id('e'), 's1', ep, sampleEvent(clock, ep, { lastMessageId: 'm1' }));
      expect(await store.tryCompletePendingMessage(id('e'), 's1', ep, 'm1', completion(clock, ep))).toBe(
        false,
      );
      expect((await store.getFailedEvent(ep, id('e'), 's1'))?.lastMessageId).toBe('m1');
    });

    it('refuses when another message wrote the row since (comparison is exact, case-sensitive)', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.uploadPendingMessage(id('e'), 's1', ep, sampleEvent(clock, ep, { lastMessageId: 'm2' }));
      expect(await store.tryCompletePendingMessage(id('e'), 's1', ep, 'm1', completion(clock, ep))).toBe(
        false,
      );
      expect(await store.tryCompletePendingMessage(id('e'), 's1', ep, 'M2', completion(clock, ep))).toBe(
        false,
      );
      expect(await store.getPendingEvent(ep, id('e'), 's1')).not.toBeNull();
    });

    it('refuses a removed row', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.uploadPendingMessage(id('e'), 's1', ep, sampleEvent(clock, ep, { lastMessageId: 'm1' }));
      await store.removeMessage(id('e'), 's1', ep);
      expect(await store.tryCompletePendingMessage(id('e'), 's1', ep, 'm1', completion(clock, ep))).toBe(
        false,
      );
      expect(await store.getEvent(ep, id('e'))).toBeNull();
    });

    it('of two concurrent callers exactly one wins', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.uploadPendingMessage(id('e'), 's1', ep, sampleEvent(clock, ep, { lastMessageId: 'm1' }));
      const results = await Promise.all([
        store.tryCompletePendingMessage(id('e'), 's1', ep, 'm1', completion(clock, ep)),
        store.tryCompletePendingMessage(id('e'), 's1', ep, 'm1', completion(clock, ep)),
      ]);
      expect(results.filter(Boolean)).toHaveLength(1);
      expect((await store.getEvent(ep, id('e')))?.resolutionStatus).toBe(ResolutionStatus.Completed);
    });
  });
}
