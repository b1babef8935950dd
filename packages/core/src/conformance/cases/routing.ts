import { expect, it } from 'vitest';
import { Header } from '../../envelope/headers.js';
import { MAX_ID_LENGTH } from '../../transport/message-validation.js';
import type { PeekedMessage } from '../../transport/transport.js';
import { TransportErrorCode } from '../../transport/transport-error.js';
import type { TransportMessage } from '../../transport/transport-message.js';
import { CONFORMANCE_TOPOLOGY, type Harness, message } from '../harness.js';

async function everywhere(h: Harness): Promise<Record<string, PeekedMessage[]>> {
  const inputs = [
    'Resolver',
    ...CONFORMANCE_TOPOLOGY.endpoints,
    ...CONFORMANCE_TOPOLOGY.endpoints.map((e) => `${e}-reply`),
  ];
  const found: Record<string, PeekedMessage[]> = {};
  for (const input of inputs) {
    const messages = await h.transport.peek(input, { max: 100 });
    if (messages.length > 0) found[input] = messages;
  }
  return found;
}

function headersOf(messages: readonly PeekedMessage[] | undefined): Record<string, string>[] {
  return (messages ?? [])
    .map((m) => ({ ...m.headers }))
    .sort((a, b) => (a.To ?? '').localeCompare(b.To ?? ''));
}

export function routingCases(harness: () => Harness): void {
  it('fans a publish out to each consumer with its own EventId, and copies each to the Resolver', async () => {
    const h = harness();
    const original = message({
      sessionId: 'cust-1',
      to: 'CustomerChanged',
      eventTypeId: 'CustomerChanged',
      headers: { [Header.EventId]: 'original-event', [Header.MessageType]: 'EventRequest' },
    });
    await h.send('Crm', original);
    const found = await everywhere(h);
    expect(Object.keys(found).sort()).toEqual(['Billing', 'Erp', 'Resolver']);
    const [billing] = found.Billing!;
    const [erp] = found.Erp!;
    expect(billing!.headers).toMatchObject({ To: 'Billing', From: 'Crm', EventTypeId: 'CustomerChanged' });
    expect(erp!.headers).toMatchObject({ To: 'Erp', From: 'Crm', EventTypeId: 'CustomerChanged' });
    const eventIds = [billing!.headers.EventId, erp!.headers.EventId];
    expect(new Set(eventIds).size).toBe(2);
    expect(eventIds).not.toContain('original-event');
    expect(billing!).toMatchObject({
      sessionId: 'cust-1',
      body: original.body,
      correlationId: original.correlationId,
    });
    expect(headersOf(found.Resolver)).toEqual(headersOf([billing!, erp!]));
  });

  it('sends To=Resolver only to the Resolver, stamped with From = the sender', async () => {
    const h = harness();
    await h.send('Erp', message({ sessionId: 's', to: 'Resolver', body: 'outcome' }));
    const found = await everywhere(h);
    expect(Object.keys(found)).toEqual(['Resolver']);
    expect(found.Resolver![0]!.headers).toMatchObject({ To: 'Resolver', From: 'Erp' });
  });

  it('brings To=Retry and To=Continuation back to the sender own input, unseen by the Resolver', async () => {
    const h = harness();
    await h.send(
      'Erp',
      message({ sessionId: 's', to: 'Retry', body: 'r' }),
      message({ sessionId: 's', to: 'Continuation', body: 'c' }),
    );
    const found = await everywhere(h);
    expect(Object.keys(found)).toEqual(['Erp']);
    expect(found.Erp!.map((m) => [m.body, m.headers.To, m.headers.From])).toEqual([
      ['r', 'Erp', 'Retry'],
      ['c', 'Erp', 'Continuation'],
    ]);
  });

  it('delivers a message addressed to the sender itself there, plus a Resolver copy', async () => {
    const h = harness();
    await h.send('Erp', message({ sessionId: 's', to: 'Erp', from: 'Manager', body: 'resubmit' }));
    const found = await everywhere(h);
    expect(Object.keys(found).sort()).toEqual(['Erp', 'Resolver']);
    expect(found.Erp![0]!.headers).toMatchObject({ To: 'Erp', From: 'Manager' });
    expect(found.Resolver![0]!.headers).toMatchObject({ To: 'Erp', From: 'Manager' });
  });

  it('sends To={E}-reply to that reply input only', async () => {
    const h = harness();
    await h.send('Crm', message({ sessionId: 'req-1', to: 'Crm-reply', body: 'answer' }));
    const found = await everywhere(h);
    expect(Object.keys(found)).toEqual(['Crm-reply']);
  });

  it('refuses a publish that no route takes, naming why, and delivers none of it (issue 12.7)', async () => {
    const h = harness();
    const refused = async (source: string, m: TransportMessage, why: RegExp, code: TransportErrorCode) => {
      const error = await h.transport.publish([{ source, messages: [m] }]).catch((e: unknown) => e);
      expect(error).toMatchObject({ code });
      expect(String((error as Error).message)).toMatch(why);
    };
    const invalid = TransportErrorCode.InvalidArgument;
    await refused(
      'Billing',
      message({ sessionId: 's', to: 'CustomerChanged', eventTypeId: 'CustomerChanged' }),
      /no endpoint subscribes to 'CustomerChanged' from 'Billing'/,
      invalid,
    );
    await refused(
      'Crm',
      message({ sessionId: 's', to: 'Unrouted', eventTypeId: 'Unrouted' }),
      /no endpoint subscribes to 'Unrouted'/,
      invalid,
    );
    await refused(
      'Crm',
      message({ sessionId: 's', to: 'CustomerChanged', eventTypeId: 'CustomerChanged', from: 'Erp' }),
      /already has From 'Erp'/,
      invalid,
    );
    await refused('Crm', message({ sessionId: 's' }), /has no 'To' header/, invalid);
    await refused(
      'Crm',
      {
        ...message({ sessionId: 's', to: 'CustomerChanged', eventTypeId: 'CustomerChanged' }),
        correlationId: null,
      },
      /needs a correlation id/,
      invalid,
    );
    await refused(
      'Ghost',
      message({ sessionId: 's', to: 'Resolver' }),
      /'Ghost' is neither an endpoint of the topology nor a platform address/,
      TransportErrorCode.EntityNotFound,
    );
    expect(await everywhere(h)).toEqual({});
  });

  it('refuses header values that are not strings and over-long ids, naming the header (issue 12.8)', async () => {
    const h = harness();
    const base = message({ sessionId: 's', to: 'Resolver' });
    const cases: [TransportMessage, RegExp][] = [
      [
        { ...base, headers: { ...base.headers, EventId: 7 as unknown as string } },
        /header 'EventId' must be a string, got a number/,
      ],
      [
        { ...base, headers: { ...base.headers, To: ['Resolver'] as unknown as string } },
        /header 'To' must be a string, got an array/,
      ],
      [
        { ...base, headers: null as unknown as Record<string, string> },
        /headers must be a JSON object of strings, got null/,
      ],
      [
        { ...base, correlationId: 5 as unknown as string },
        /correlationId must be a non-empty string or null, got a number/,
      ],
      [
        { ...base, headers: { ...base.headers, EventId: 'e'.repeat(MAX_ID_LENGTH + 1) } },
        /header 'EventId' is 101 characters long/,
      ],
      [
        { ...base, sessionId: 's'.repeat(MAX_ID_LENGTH + 1) },
        /sessionId is 101 characters long; ids may have at most 100/,
      ],
      [{ ...base, messageId: 'm'.repeat(MAX_ID_LENGTH + 1) }, /messageId is 101 characters long/],
    ];
    for (const [bad, why] of cases) {
      const error = await h.transport.publish([{ source: 'Crm', messages: [bad] }]).catch((e: unknown) => e);
      expect(error, String(why)).toMatchObject({ code: TransportErrorCode.InvalidArgument });
      expect(String((error as Error).message)).toMatch(why);
      expect(error).not.toBeInstanceOf(TypeError);
    }
    await h.transport.publish([
      { source: 'Crm', messages: [{ ...base, sessionId: 's'.repeat(MAX_ID_LENGTH) }] },
    ]);
    expect(Object.keys(await everywhere(h))).toEqual(['Resolver']);
  });

  it('refuses a publish that would land on an input that does not exist, delivering none of it', async () => {
    const h = harness();
    await expect(
      h.transport.publish([
        { source: 'Erp', messages: [message({ sessionId: 's', to: 'Erp', body: 'ok' })] },
        { source: 'Ghost', messages: [message({ sessionId: 's', to: 'Retry' })] },
      ]),
    ).rejects.toMatchObject({ code: TransportErrorCode.EntityNotFound });
    expect(await everywhere(h)).toEqual({});
  });
}
