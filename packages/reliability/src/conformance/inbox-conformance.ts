import type { ManualClock } from '@nimbus/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InboxStore } from '../inbox/inbox-store.js';

export interface InboxConformanceFixture {
  readonly store: InboxStore;
  /** The clock the store stamps records with. */
  readonly clock: ManualClock;
  cleanup(): Promise<void>;
}

/** Registers `InboxStore conformance [name]`; `factory` must return an empty store for every case. */
export function describeInboxStoreConformance(
  name: string,
  factory: () => Promise<InboxConformanceFixture>,
): void {
  describe(`InboxStore conformance [${name}]`, () => {
    let fixture: InboxConformanceFixture;
    beforeEach(async () => {
      fixture = await factory();
    });
    afterEach(async () => {
      await fixture.cleanup();
    });

    it('hasProcessed turns from false to true after a record', async () => {
      const { store } = fixture;
      expect(await store.hasProcessed('billing', 'm1')).toBe(false);
      await store.recordProcessed('billing', 'm1');
      expect(await store.hasProcessed('billing', 'm1')).toBe(true);
    });

    it('recording is idempotent, also when repeated concurrently', async () => {
      const { store } = fixture;
      await Promise.all(Array.from({ length: 32 }, () => store.recordProcessed('billing', 'm1')));
      await store.recordProcessed('billing', 'm1');
      expect(await store.hasProcessed('billing', 'm1')).toBe(true);
    });

    it('a record for one endpoint does not mark other endpoints processed', async () => {
      const { store } = fixture;
      await store.recordProcessed('billing', 'shared');
      expect(await store.hasProcessed('shipping', 'shared')).toBe(false);
      await store.recordProcessed('shipping', 'shared');
      expect(await store.hasProcessed('shipping', 'shared')).toBe(true);
    });

    it('message ids are case-sensitive', async () => {
      const { store } = fixture;
      await store.recordProcessed('billing', 'MSG-A');
      expect(await store.hasProcessed('billing', 'msg-a')).toBe(false);
    });

    it('ids differing only by trailing whitespace are distinct, for messages and endpoints', async () => {
      const { store } = fixture;
      await store.recordProcessed('billing', 'm1 ');
      expect(await store.hasProcessed('billing', 'm1')).toBe(false);
      await store.recordProcessed('billing ', 'm2');
      expect(await store.hasProcessed('billing', 'm2')).toBe(false);
    });

    it('maximum-length identifiers are recorded and found, and a prefix is not', async () => {
      const { store } = fixture;
      const endpoint = 'e'.repeat(260);
      const message = 'm'.repeat(512);
      await store.recordProcessed(endpoint, message);
      await store.recordProcessed(endpoint, message);
      expect(await store.hasProcessed(endpoint, message)).toBe(true);
      expect(await store.hasProcessed(endpoint, message.slice(0, 511))).toBe(false);
    });

    it('purgeExpired removes expired rows, keeps newer ones, and repeated records keep the first time', async () => {
      const { store, clock } = fixture;
      await store.recordProcessed('billing', 'old');
      clock.advance(1_000);
      const cutoff = new Date(clock.now());
      await store.recordProcessed('billing', 'old'); // keeps the first record time
      await store.recordProcessed('billing', 'new');
      expect(await store.purgeExpired('billing', cutoff)).toBe(1);
      expect(await store.purgeExpired('billing', cutoff)).toBe(0);
      expect(await store.hasProcessed('billing', 'old')).toBe(false);
      expect(await store.hasProcessed('billing', 'new')).toBe(true);
    });

    it('purgeExpired is scoped to the requested endpoint', async () => {
      const { store, clock } = fixture;
      await store.recordProcessed('billing', 'm1');
      await store.recordProcessed('shipping', 'm1');
      await store.recordProcessed('billing ', 'm1');
      clock.advance(1_000);
      expect(await store.purgeExpired('billing', new Date(clock.now()))).toBe(1);
      expect(await store.hasProcessed('shipping', 'm1')).toBe(true);
      expect(await store.hasProcessed('billing ', 'm1')).toBe(true);
    });

    it('operations given an aborted signal throw AbortError and record nothing', async () => {
      const { store } = fixture;
      const signal = AbortSignal.abort();
      await expect(store.recordProcessed('billing', 'm1', signal)).rejects.toMatchObject({
        name: 'AbortError',
      });
      await expect(store.hasProcessed('billing', 'm1', signal)).rejects.toMatchObject({ name: 'AbortError' });
      await expect(store.purgeExpired('billing', new Date(), signal)).rejects.toMatchObject({
        name: 'AbortError',
      });
      expect(await store.hasProcessed('billing', 'm1')).toBe(false);
    });
  });
}
