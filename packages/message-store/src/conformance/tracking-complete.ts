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
    /** The operator reconcile of (ep, eventId, 's1') while its last message id is `expectedLastMessageId`. */
    const reconcile = (
      store: MessageTrackingStore,
      clock: OpenedStore<MessageTrackingStore>['clock'],
      ep: string,
      eventId: string,
      expectedLastMessageId: string | null,
    ) =>
      store.tryCompletePending({
        key: { endpointId: ep, eventId, sessionId: 's1' },
        expectedLastMessageId,
        content: completion(clock, ep),
      });

    it('completes a Pending row whose last message id matches', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('e'), sessionId: 's1' },
        status: ResolutionStatus.Pending,
        content: sampleEvent(clock, ep, { lastMessageId: 'm1' }),
      });
      expect(await reconcile(store, clock, ep, id('e'), 'm1')).toBe(true);
      const row = await store.getEventById({ endpointId: ep, id: `${id('e')}_s1` });
      expect(row?.resolutionStatus).toBe(ResolutionStatus.Completed);
      expect(row?.reason).toBe('reconciled');
      expect(
        await store.getEventInStatus({
          key: { endpointId: ep, eventId: id('e'), sessionId: 's1' },
          status: ResolutionStatus.Pending,
        }),
      ).toBeNull();
    });

    it('null expected id matches a row whose last message id is null', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('e'), sessionId: 's1' },
        status: ResolutionStatus.Pending,
        content: sampleEvent(clock, ep, { lastMessageId: null }),
      });
      expect(await reconcile(store, clock, ep, id('e'), null)).toBe(true);
    });

    it('null expected id does not match a row with a last message id, and vice versa', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('a'), sessionId: 's1' },
        status: ResolutionStatus.Pending,
        content: sampleEvent(clock, ep, { lastMessageId: 'm1' }),
      });
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('b'), sessionId: 's1' },
        status: ResolutionStatus.Pending,
        content: sampleEvent(clock, ep, { lastMessageId: null }),
      });
      expect(await reconcile(store, clock, ep, id('a'), null)).toBe(false);
      expect(await reconcile(store, clock, ep, id('b'), 'm1')).toBe(false);
    });

    it('refuses a missing row', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      expect(await reconcile(store, clock, ep, id('e'), 'm1')).toBe(false);
      expect(await store.getEvent({ endpointId: ep, eventId: id('e') })).toBeNull();
    });

    it('refuses a row that is no longer Pending', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('e'), sessionId: 's1' },
        status: ResolutionStatus.Failed,
        content: sampleEvent(clock, ep, { lastMessageId: 'm1' }),
      });
      expect(await reconcile(store, clock, ep, id('e'), 'm1')).toBe(false);
      expect(
        (
          await store.getEventInStatus({
            key: { endpointId: ep, eventId: id('e'), sessionId: 's1' },
            status: ResolutionStatus.Failed,
          })
        )?.lastMessageId,
      ).toBe('m1');
    });

    it('refuses when another message wrote the row since (comparison is exact, case-sensitive)', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('e'), sessionId: 's1' },
        status: ResolutionStatus.Pending,
        content: sampleEvent(clock, ep, { lastMessageId: 'm2' }),
      });
      expect(await reconcile(store, clock, ep, id('e'), 'm1')).toBe(false);
      expect(await reconcile(store, clock, ep, id('e'), 'M2')).toBe(false);
      expect(
        await store.getEventInStatus({
          key: { endpointId: ep, eventId: id('e'), sessionId: 's1' },
          status: ResolutionStatus.Pending,
        }),
      ).not.toBeNull();
    });

    it('refuses a removed row', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('e'), sessionId: 's1' },
        status: ResolutionStatus.Pending,
        content: sampleEvent(clock, ep, { lastMessageId: 'm1' }),
      });
      await store.removeMessage({ endpointId: ep, eventId: id('e'), sessionId: 's1' });
      expect(await reconcile(store, clock, ep, id('e'), 'm1')).toBe(false);
      expect(await store.getEvent({ endpointId: ep, eventId: id('e') })).toBeNull();
    });

    it('of two concurrent callers exactly one wins', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('e'), sessionId: 's1' },
        status: ResolutionStatus.Pending,
        content: sampleEvent(clock, ep, { lastMessageId: 'm1' }),
      });
      const results = await Promise.all([
        store.tryCompletePending({
          key: { endpointId: ep, eventId: id('e'), sessionId: 's1' },
          expectedLastMessageId: 'm1',
          content: completion(clock, ep),
        }),
        store.tryCompletePending({
          key: { endpointId: ep, eventId: id('e'), sessionId: 's1' },
          expectedLastMessageId: 'm1',
          content: completion(clock, ep),
        }),
      ]);
      expect(results.filter(Boolean)).toHaveLength(1);
      expect((await store.getEvent({ endpointId: ep, eventId: id('e') }))?.resolutionStatus).toBe(
        ResolutionStatus.Completed,
      );
    });
  });
}
