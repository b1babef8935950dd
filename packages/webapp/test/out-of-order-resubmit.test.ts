import { MessageType } from '@nimbus/core';
import { EndpointRole, type NimBusMessageStore, ResolutionStatus } from '@nimbus/message-store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './support/harness.js';
import { ERP } from './support/seed.js';
import { memoryStores } from './support/store-factories.js';

// A dead-lettered or unsupported event left its session's order: resubmitting it runs it after later events of
// the session, so the operator must confirm that (acknowledgeOutOfOrder) — issue 12, the product rule.
const SESSION = 'cust-9';
const DEAD = 'evt-dead-9';
const UNSUPPORTED = 'evt-unsupported-9';
const LATER = ['evt-later-9a', 'evt-later-9b'];

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 11, minute));

async function seedSession(store: NimBusMessageStore) {
  const write = async (eventId: string, minute: number, status: ResolutionStatus, type: MessageType) => {
    const content = {
      eventTypeId: 'CustomerChanged',
      eventJson: JSON.stringify({ customerId: SESSION, name: 'n' }),
    };
    await store.storeMessage({
      eventId,
      messageId: `${eventId}-m1`,
      endpointId: ERP,
      enqueuedTimeUtc: at(minute),
      messageType: MessageType.EventRequest,
      eventTypeId: 'CustomerChanged',
      sessionId: SESSION,
      from: 'Crm',
      to: ERP,
      endpointRole: EndpointRole.Subscriber,
      messageContent: { eventContent: content, errorContent: null },
    });
    await store.writeStatus({
      key: { endpointId: ERP, eventId, sessionId: SESSION },
      status,
      content: {
        enqueuedTimeUtc: at(minute),
        messageType: type,
        lastMessageId: `${eventId}-m1`,
        eventTypeId: 'CustomerChanged',
        from: 'Crm',
        to: ERP,
        endpointRole: EndpointRole.Subscriber,
        messageContent: { eventContent: content, errorContent: null },
      },
    });
  };
  await write(DEAD, 1, ResolutionStatus.DeadLettered, MessageType.ErrorResponse);
  await write(UNSUPPORTED, 2, ResolutionStatus.Unsupported, MessageType.UnsupportedResponse);
  for (const [i, eventId] of LATER.entries())
    await write(eventId, 3 + i, ResolutionStatus.Completed, MessageType.ResolutionResponse);
}

describe('WebApp: resubmitting a dead-lettered or unsupported event needs acknowledgeOutOfOrder', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(memoryStores);
    await seedSession(h.stores.store);
  });
  afterAll(async () => {
    await h?.close();
  });

  const url = (eventId: string, action: string) => `/api/endpoints/${ERP}/events/${eventId}/${action}`;
  const sentTo = async () => h.transport.peek(ERP, { max: 100 });
  const auditsOf = async (eventId: string) =>
    (await h.admin.get(`/api/endpoints/${ERP}/events/${eventId}/audits`)).body as Record<string, unknown>[];

  it('answers 409 OutOfOrderNotAcknowledged explaining why, sends nothing and audits nothing', async () => {
    const before = (await sentTo()).length;
    for (const [eventId, action, body] of [
      [DEAD, 'resubmit', {}],
      [DEAD, 'resubmit-with-changes', { eventJson: JSON.stringify({ customerId: SESSION, name: 'x' }) }],
      [UNSUPPORTED, 'resubmit', { acknowledgeOutOfOrder: false }],
    ] as const) {
      const refused = await h.admin.post(url(eventId, action), body);
      expect(refused.status).toBe(409);
      const problem = refused.body as { error: string; message: string };
      expect(problem.error).toBe('OutOfOrderNotAcknowledged');
      expect(problem.message).toContain(eventId === DEAD ? 'was dead-lettered' : 'was unsupported');
      expect(problem.message).toContain('resubmitting runs it after later events of the session');
      expect(problem.message).toContain('acknowledgeOutOfOrder: true');
    }
    const counted = (await h.admin.post(url(DEAD, 'resubmit'), {})).body as { message: string };
    // The unsupported event and the two completed ones came after it in its session.
    expect(counted.message).toContain('3 later events of the session recorded since');
    expect((await sentTo()).length).toBe(before);
    expect((await auditsOf(DEAD)).filter((a) => a.auditType === 'Resubmit')).toHaveLength(0);
  });

  it('refuses a value that is not a boolean with 400 naming the field', async () => {
    const bad = await h.admin.post(url(DEAD, 'resubmit'), { acknowledgeOutOfOrder: 'yes' });
    expect(bad.status).toBe(400);
    expect((bad.body as { message: string }).message).toContain('body.acknowledgeOutOfOrder');
  });

  it('with acknowledgeOutOfOrder: true sends the resubmission with the AcknowledgeOutOfOrder header and audits it', async () => {
    const ok = await h.admin.post(url(DEAD, 'resubmit'), {
      acknowledgeOutOfOrder: true,
      comment: 'fixed the data',
    });
    expect(ok.status).toBe(200);
    const sent = (await sentTo()).find((m) => m.messageId === (ok.body as { messageId: string }).messageId);
    expect(sent?.headers).toMatchObject({
      MessageType: 'ResubmissionRequest',
      EventId: DEAD,
      AcknowledgeOutOfOrder: 'true',
    });
    const audits = (await auditsOf(DEAD)).filter((a) => a.auditType === 'Resubmit');
    expect(audits).toHaveLength(1);
    expect(JSON.parse(String(audits[0]!.data))).toEqual({
      action: 'resubmit',
      comment: 'fixed the data',
      acknowledgeOutOfOrder: true,
    });
  });

  it('a skip needs no acknowledgement', async () => {
    expect((await h.admin.post(url(UNSUPPORTED, 'skip'), {})).status).toBe(200);
  });

  it('bulk resubmit reports rows that need the acknowledgement as refused with the reason, unless the request acknowledges', async () => {
    const run = async (body: Record<string, unknown>) => {
      const started = await h.admin.post(`/api/endpoints/${ERP}/bulk`, body);
      expect(started.status).toBe(202);
      const jobId = String((started.body as { jobId: string }).jobId);
      for (let i = 0; i < 1000; i++) {
        const job = (await h.admin.get(`/api/bulk-jobs/${jobId}`)).body as Record<string, unknown>;
        if (job.done === true) return job;
        await new Promise((r) => setTimeout(r, 10));
      }
      throw new Error('bulk job did not finish');
    };
    const before = (await sentTo()).length;
    const refused = await run({ action: 'resubmit', eventIds: [DEAD, UNSUPPORTED] });
    expect(refused).toMatchObject({ total: 2, succeeded: 0, refused: 2, failed: 0 });
    const errors = refused.errors as { eventId: string; message: string }[];
    // A bulk job walks its snapshot in key order, not in the order the ids were given.
    expect(errors.map((e) => e.eventId).sort()).toEqual([DEAD, UNSUPPORTED].sort());
    for (const e of errors) expect(e.message).toContain('runs it after later events of the session');
    expect((await sentTo()).length).toBe(before);
    const acknowledged = await run({ action: 'resubmit', eventIds: [DEAD], acknowledgeOutOfOrder: true });
    expect(acknowledged).toMatchObject({ total: 1, succeeded: 1, refused: 0, failed: 0 });
    expect(acknowledged.filter).toMatchObject({ acknowledgeOutOfOrder: true });
    const sent = (await sentTo()).slice(before);
    expect(sent.map((m) => m.headers.AcknowledgeOutOfOrder)).toEqual(['true']);
  });
});
