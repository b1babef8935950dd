import { expect, it } from 'vitest';
import { Header } from '../../envelope/headers.js';
import type { PeekedMessage } from '../../transport/transport.js';
import { TransportErrorCode } from '../../transport/transport-error.js';
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

  it('delivers nothing for a publish without a route, and never re-forwards a copy that has From', async () => {
    const h = harness();
    await h.send(
      'Billing',
      message({ sessionId: 's', to: 'CustomerChanged', eventTypeId: 'CustomerChanged' }),
    );
    await h.send('Crm', message({ sessionId: 's', to: 'Unrouted', eventTypeId: 'Unrouted' }));
    await h.send(
      'Crm',
      message({ sessionId: 's', to: 'CustomerChanged', eventTypeId: 'CustomerChanged', from: 'Erp' }),
    );
    expect(await everywhere(h)).toEqual({});
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
    await h.send('Ghost', message({ sessionId: 's', to: 'Resolver', body: 'still audited' }));
    expect(Object.keys(await everywhere(h))).toEqual(['Resolver']);
  });
}
