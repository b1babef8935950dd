import { Header, uuidv7 } from '@nimbus/core';
import { MessageAuditType } from '@nimbus/message-store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTRIBUTOR, type Harness, READER, startHarness } from './support/harness.js';
import { ERP } from './support/seed.js';
import { memoryStores } from './support/store-factories.js';

type Json = Record<string, unknown>;

// Issue 12.7: messages the transport dead-lettered (no message type, no event id, unreadable…) are visible to
// operators, who can requeue or purge them; reads need Reader, requeue Contributor, purge Owner; all audited.
describe('WebApp: transport dead letters', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(memoryStores);
  });
  afterAll(async () => {
    await h?.close();
  });

  /** Puts a message without MessageType and EventId on Erp's input and dead-letters it, as the engine does. */
  const deadLetterOne = async (sessionId: string) => {
    const messageId = uuidv7();
    await h.transport.publish([
      {
        source: ERP,
        messages: [
          { messageId, sessionId, correlationId: 'c-1', headers: { [Header.To]: ERP }, body: '{"x":1}' },
        ],
      },
    ]);
    const session = await h.transport.acceptSession(ERP, { sessionId, waitMs: 0 });
    const [received] = await session!.receive({ max: 1, waitMs: 0 });
    await session!.deadLetter(received!, {
      reason: "Invalid message: missing required header 'MessageType'",
      description: 'no type',
    });
    await session!.release();
    return messageId;
  };

  it('lists and shows dead letters with their reason to a Reader; refuses an unknown id with 404', async () => {
    const messageId = await deadLetterOne('dl-1');
    const reader = await h.signedIn(READER);
    const list = (await reader.get(`/api/dead-letters/${ERP}`)).body as Json;
    const items = list.items as Json[];
    const item = items.find((i) => i.messageId === messageId)!;
    expect(item).toMatchObject({
      input: ERP,
      sessionId: 'dl-1',
      messageType: null,
      eventId: null,
      reason: "Invalid message: missing required header 'MessageType'",
      description: 'no type',
    });
    expect(list.total).toBeGreaterThanOrEqual(1);
    const shown = await reader.get(`/api/dead-letters/${ERP}/${item.id}`);
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({ body: '{"x":1}', headers: { To: ERP } });
    expect((await reader.get(`/api/dead-letters/${ERP}/nope`)).status).toBe(404);
    expect((await reader.get('/api/dead-letters/NoSuchEndpoint')).status).toBe(404);
    expect((await reader.get('/api/dead-letters/Resolver')).status).toBe(200);
  });

  it('requeue needs Contributor (a Reader gets 403 and a denied audit row); the message returns to its session', async () => {
    const messageId = await deadLetterOne('dl-2');
    const id = ((await h.admin.get(`/api/dead-letters/${ERP}`)).body as { items: Json[] }).items.find(
      (i) => i.messageId === messageId,
    )!.id as string;
    const reader = await h.signedIn(READER);
    expect((await reader.post(`/api/dead-letters/${ERP}/requeue`, { ids: [id] })).status).toBe(403);
    const contributor = await h.signedIn(CONTRIBUTOR);
    const requeued = await contributor.post(`/api/dead-letters/${ERP}/requeue`, {
      ids: [id],
      comment: 'fixed',
    });
    expect(requeued).toMatchObject({ status: 200, body: { requeued: 1 } });
    const back = await h.transport.peek(ERP, { sessionId: 'dl-2' });
    expect(back.map((m) => m.messageId)).toEqual([messageId]);
    const audits = await h.stores.store.searchAudits({
      filter: { auditType: MessageAuditType.RequeueDeadLetters },
      continuationToken: null,
      maxItems: 10,
    });
    const rows = audits.audits;
    expect(rows.map((r) => r.audit.accessDenied).sort()).toEqual([false, true]);
    expect(rows.find((r) => !r.audit.accessDenied)?.audit.data).toContain(`"ids":["${id}"]`);
    // Consume the requeued message so later cases see a clean line.
    const session = await h.transport.acceptSession(ERP, { sessionId: 'dl-2', waitMs: 0 });
    for (const m of await session!.receive({ max: 10, waitMs: 0 })) await session!.complete(m);
    await session!.release();
  });

  it('purge needs Owner; a Contributor is refused, the admin purges every dead letter of the input', async () => {
    await deadLetterOne('dl-3');
    const contributor = await h.signedIn(CONTRIBUTOR);
    expect((await contributor.post(`/api/dead-letters/${ERP}/purge`, {})).status).toBe(403);
    const purged = await h.admin.post(`/api/dead-letters/${ERP}/purge`, { comment: 'cleanup' });
    expect(purged.status).toBe(200);
    expect((purged.body as Json).purged).toBeGreaterThanOrEqual(1);
    expect(((await h.admin.get(`/api/dead-letters/${ERP}`)).body as Json).items).toEqual([]);
    const audits = await h.stores.store.searchAudits({
      filter: { auditType: MessageAuditType.PurgeDeadLetters },
      continuationToken: null,
      maxItems: 10,
    });
    expect(audits.audits.map((r) => r.audit.accessDenied).sort()).toEqual([false, true]);
  });
});
