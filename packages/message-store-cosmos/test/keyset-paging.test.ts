import { MessageType } from '@nimbus/core';
import { InvalidStoreArgumentError, MessageAuditType, ResolutionStatus } from '@nimbus/message-store';
import { describe, expect, it } from 'vitest';
import { startCosmosTestServer } from './support/cosmos-test-server.js';

/*
 * Continuation tokens are keyset cursors: rows written and removed between two page requests neither
 * repeat a row nor skip one (an offset token did both: a new row pushed the next page's first row back
 * onto it, a removed one pulled a row past it). Getting a row by its composite id is a point read.
 */

const requests: string[] = [];
const cosmos = await startCosmosTestServer({
  intercept: (req) => {
    requests.push(`${req.method} ${req.url}`);
    return false;
  },
});
const ENDPOINT = 'billing';

type Store = Awaited<ReturnType<typeof cosmos.openStore>>['store'];

async function withStore(run: (store: Store) => Promise<void>) {
  const { store, cleanup } = await cosmos.openStore();
  try {
    await run(store);
  } finally {
    await cleanup();
  }
}

const writeFailed = (store: Store, eventId: string, endpointId = ENDPOINT) =>
  store.writeStatus({
    key: { endpointId, eventId, sessionId: 's1' },
    status: ResolutionStatus.Failed,
    content: {
      enqueuedTimeUtc: new Date(),
      messageType: MessageType.EventRequest,
      lastMessageId: `m-${eventId}`,
    },
  });

const remove = (store: Store, eventId: string) =>
  store.removeMessage({ endpointId: ENDPOINT, eventId, sessionId: 's1' });

/** e0 … e{n-1}, written in that order (so listed e{n-1} first). */
async function writeRows(store: Store, n: number, prefix = 'e', endpointId = ENDPOINT) {
  for (let i = 0; i < n; i++) await writeFailed(store, `${prefix}${i}`, endpointId);
}

describe('Cosmos keyset continuation tokens', () => {
  it('getEventsByFilter: rows written and removed between pages come back once, none skipped', async () => {
    await withStore(async (store) => {
      await writeRows(store, 7);
      await writeRows(store, 3, 'other-', 'billing-eu'); // a second container the prefix also matches
      const page = (token: string | null) =>
        store.getEventsByFilter({ filter: { endpointId: 'billing' }, continuationToken: token, maxItems: 3 });
      const first = await page(null);
      expect(first.events.map((e) => e.eventId)).toEqual(['other-2', 'other-1', 'other-0']);
      const second = await page(first.continuationToken);
      expect(second.events.map((e) => e.eventId)).toEqual(['e6', 'e5', 'e4']);
      // Between the requests: two new rows (ahead of the cursor), one returned row and one not yet
      // returned row removed.
      await writeFailed(store, 'late-1');
      await writeFailed(store, 'late-2');
      await remove(store, 'e5');
      await remove(store, 'e2');
      const seen = [...first.events, ...second.events].map((e) => e.eventId);
      let token = second.continuationToken;
      while (token !== null) {
        const next = await page(token);
        seen.push(...next.events.map((e) => e.eventId));
        token = next.continuationToken;
      }
      expect(seen).toEqual(['other-2', 'other-1', 'other-0', 'e6', 'e5', 'e4', 'e3', 'e1', 'e0']);
    });
  });

  it('downloadEndpointStatePaging: a write and a removal between pages neither repeat nor skip a row', async () => {
    await withStore(async (store) => {
      await writeRows(store, 8);
      const page = (token: string | null) =>
        store.downloadEndpointStatePaging({ endpointId: ENDPOINT, pageSize: 3, continuationToken: token });
      const ids = (state: Awaited<ReturnType<typeof page>>) =>
        state.failedEvents.map((id) => id.slice(0, -3));
      const first = await page(null);
      expect(ids(first)).toEqual(['e7', 'e6', 'e5']);
      await writeFailed(store, 'late');
      await remove(store, 'e6');
      const second = await page(first.continuationToken);
      expect(ids(second)).toEqual(['e4', 'e3', 'e2']);
      await remove(store, 'e1');
      await writeFailed(store, 'later');
      const third = await page(second.continuationToken);
      expect(ids(third)).toEqual(['e0']);
      expect(third.continuationToken).toBeNull();
    });
  });

  it('searchMessages: history written between pages does not push a record onto the next page', async () => {
    await withStore(async (store) => {
      const message = (i: number) => ({
        eventId: `e${i}`,
        messageId: `m${i}`,
        endpointId: ENDPOINT,
        enqueuedTimeUtc: new Date(),
        messageType: MessageType.EventRequest,
      });
      for (let i = 0; i < 5; i++) await store.storeMessage(message(i));
      const page = (token: string | null) =>
        store.searchMessages({ filter: { endpointId: ENDPOINT }, continuationToken: token, maxItems: 2 });
      const first = await page(null);
      await store.storeMessage(message(5));
      const seen = first.messages.map((m) => m.messageId);
      let token = first.continuationToken;
      while (token !== null) {
        const next = await page(token);
        seen.push(...next.messages.map((m) => m.messageId));
        token = next.continuationToken;
      }
      expect(seen).toEqual(['m4', 'm3', 'm2', 'm1', 'm0']);
    });
  });

  it('searchAudits: an audit written between pages does not repeat one', async () => {
    await withStore(async (store) => {
      const audit = (i: number) =>
        store.storeMessageAudit({
          eventId: `e${i}`,
          endpointId: ENDPOINT,
          audit: {
            auditorName: 'ops@example.com',
            auditTimestamp: new Date(),
            auditType: MessageAuditType.Comment,
            comment: `c${i}`,
          },
        });
      for (let i = 0; i < 5; i++) await audit(i);
      const page = (token: string | null) =>
        store.searchAudits({ filter: { endpointId: ENDPOINT }, continuationToken: token, maxItems: 2 });
      const first = await page(null);
      await audit(5);
      const seen = first.audits.map((a) => a.eventId);
      let token = first.continuationToken;
      while (token !== null) {
        const next = await page(token);
        seen.push(...next.audits.map((a) => a.eventId));
        token = next.continuationToken;
      }
      expect(seen).toEqual(['e4', 'e3', 'e2', 'e1', 'e0']);
    });
  });

  it('refuses a token it did not issue, naming the argument', async () => {
    await withStore(async (store) => {
      for (const token of [
        '40',
        'k1.not-json',
        `k1.${Buffer.from('{"s":"x","k":[]}').toString('base64url')}`,
      ]) {
        await expect(
          store.getEventsByFilter({ filter: {}, continuationToken: token, maxItems: 2 }),
        ).rejects.toThrow(InvalidStoreArgumentError);
      }
    });
  });

  it('getEventById is a point read in the session partition, not a query', async () => {
    await withStore(async (store) => {
      await writeFailed(store, 'order_42');
      requests.length = 0;
      const row = await store.getEventById({ endpointId: ENDPOINT, id: 'order_42_s1' });
      expect(row?.eventId).toBe('order_42');
      const documentCalls = requests.filter((r) => r.includes('/docs'));
      expect(documentCalls.length).toBeGreaterThan(0);
      expect(documentCalls.every((r) => r.startsWith('GET ') && /\/docs\/[^/?]+$/.test(r))).toBe(true);
      expect(await store.getEventById({ endpointId: ENDPOINT, id: 'order_42_s2' })).toBeNull();
    });
  });
});
