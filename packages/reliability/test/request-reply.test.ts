import { decodeEnvelope, defineEvent, Header, ManualClock, silentLogger } from '@nimbus/core';
import { createMemoryTransport } from '@nimbus/transport-memory';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createRequester,
  createResponder,
  RequestReplyConfigurationError,
  RequestReplyError,
  RequestTimeoutError,
  replyAddressOf,
} from '../src/index.js';

const GetQuote = defineEvent('GetQuote', {
  schema: z.object({ sku: z.string(), quantity: z.number() }),
  sessionKey: 'sku',
});
const Quote = z.object({ sku: z.string(), total: z.number() });

async function setup() {
  const clock = new ManualClock();
  const transport = createMemoryTransport({ clock });
  await transport.applyTopology({
    endpoints: ['Crm', 'Erp'],
    routes: [{ source: 'Crm', eventTypeId: 'GetQuote', target: 'Erp' }],
  });
  const requester = createRequester({ transport, endpoint: 'Crm', clock });
  const responder = createResponder({ transport, logger: silentLogger });
  /** The Erp side: takes the next request off its input and answers it with `handle`. */
  async function serveOne(handle: (payload: { sku: string; quantity: number }) => unknown) {
    const session = await transport.acceptSession('Erp', { waitMs: 5_000 });
    if (!session) throw new Error('no request arrived');
    const [request] = await session.receive({ max: 1, waitMs: 1_000 });
    const envelope = decodeEnvelope(request!);
    const payload = JSON.parse(envelope.content.eventContent!.eventJson);
    await responder.respond(envelope, () => handle(payload)).catch(() => undefined);
    await session.complete(request!);
    await session.release();
    return envelope;
  }
  return { clock, transport, requester, responder, serveOne };
}

describe('request/response over sessions', () => {
  it('sends an EventRequest with ReplyTo/ReplyToSessionId and resolves with the typed reply', async () => {
    const { requester, serveOne } = await setup();
    const pending = requester.request(
      GetQuote,
      { sku: 'A-1', quantity: 3 },
      { reply: Quote, timeoutMs: 10_000 },
    );
    const request = await serveOne((p) => ({ sku: p.sku, total: p.quantity * 10 }));
    await expect(pending).resolves.toEqual({ sku: 'A-1', total: 30 });
    expect(request.replyTo).toBe('Crm');
    expect(request.replyToSessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(request.messageType).toBe('EventRequest');
    expect(request.eventTypeId).toBe('GetQuote');
  });

  it('rejects a reply that breaks the reply contract', async () => {
    const { requester, serveOne } = await setup();
    const pending = requester.request(GetQuote, { sku: 'A-1', quantity: 3 }, { reply: Quote });
    await serveOne(() => ({ sku: 'A-1', total: 'thirty' }));
    await expect(pending).rejects.toThrow(/total/);
  });

  it('turns a responder failure into RequestReplyError carrying the error type and text', async () => {
    const { requester, serveOne } = await setup();
    const pending = requester.request(GetQuote, { sku: 'A-1', quantity: 3 }).catch((e: unknown) => e);
    class OutOfStockError extends Error {
      override name = 'OutOfStockError';
    }
    await serveOne(() => {
      throw new OutOfStockError('A-1 is out of stock');
    });
    const error = await pending;
    expect(error).toBeInstanceOf(RequestReplyError);
    expect(error).toMatchObject({ errorType: 'OutOfStockError', errorText: 'A-1 is out of stock' });
  });

  it('times out with an error naming the request when nobody answers', async () => {
    const { clock, requester, transport } = await setup();
    const pending = requester
      .request(GetQuote, { sku: 'B-2', quantity: 1 }, { timeoutMs: 5_000 })
      .catch((e: unknown) => e);
    await new Promise((r) => setImmediate(r));
    clock.advance(5_000);
    const error = await pending;
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect((error as Error).message).toMatch(
      /Request GetQuote \(message [0-9a-f-]{36}\) got no reply within 5000 ms/,
    );
    expect((await transport.counts('Erp')).active).toBe(1); // the request itself was sent
  });

  it('a late reply to a timed-out request does not reach the next request', async () => {
    const { clock, requester, responder, transport } = await setup();
    const first = requester
      .request(GetQuote, { sku: 'C-3', quantity: 1 }, { timeoutMs: 1_000 })
      .catch((e: unknown) => e);
    await new Promise((r) => setImmediate(r));
    clock.advance(1_000);
    expect(await first).toBeInstanceOf(RequestTimeoutError);
    const session = await transport.acceptSession('Erp', { waitMs: 1_000 });
    const [stale] = await session!.receive({ max: 1, waitMs: 1_000 });
    await responder.reply(stale!, { sku: 'C-3', total: -1 });
    await session!.complete(stale!);
    await session!.release();
    const second = requester
      .request(GetQuote, { sku: 'C-3', quantity: 1 }, { timeoutMs: 1_000 })
      .catch((e: unknown) => e);
    await new Promise((r) => setImmediate(r));
    clock.advance(1_000);
    expect(await second).toBeInstanceOf(RequestTimeoutError);
  });

  it('refuses a requester without an endpoint and a reply to a message that asked for none', async () => {
    const { transport, responder } = await setup();
    expect(() => createRequester({ transport, endpoint: '' })).toThrow(RequestReplyConfigurationError);
    const plain = {
      messageId: 'm',
      sessionId: 's',
      correlationId: null,
      headers: { [Header.To]: 'Erp' },
      body: '{}',
    };
    expect(replyAddressOf(plain)).toBeNull();
    await expect(responder.reply(plain, {})).rejects.toThrow(/no ReplyTo\/ReplyToSessionId/);
    await expect(responder.respond(plain, () => 7)).resolves.toBe(7);
  });
});
