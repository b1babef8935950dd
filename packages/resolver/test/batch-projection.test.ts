import { MessageType, RESOLVER_INPUT } from '@nimbus/core';
import { type OpenMessageStore, ResolutionStatus } from '@nimbus/message-store';
import { describe, expect, it } from 'vitest';
import { createHarness } from './support/harness.js';
import { eventRequest, responseTo } from './support/messages.js';

/** Counts the store's batch writes on the way through. */
function counting(store: OpenMessageStore, calls: string[]): OpenMessageStore {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      return (...args: unknown[]) => {
        calls.push(property);
        return value.apply(target, args);
      };
    },
  });
}

describe('the Resolver writes a receive batch with one store batch', () => {
  it('several messages of one session land in order; a guard refusal inside the batch leaves the others written', async () => {
    const calls: string[] = [];
    const h = await createHarness({ store: (memory) => counting(memory, calls) });
    const first = eventRequest({ sessionId: 'customer-1' });
    const second = eventRequest({ sessionId: 'customer-1' });
    const messages = [
      first,
      responseTo(first, MessageType.ResolutionResponse),
      // A late copy of the first request after its outcome: the guard refuses it, inside the same batch.
      { ...first, messageId: `${first.messageId}-copy` },
      second,
      responseTo(second, MessageType.ErrorResponse),
    ];
    for (const m of messages) await h.send(m);
    const session = await h.transport.acceptSession(RESOLVER_INPUT, { waitMs: 0 });
    const batch = await session!.receive({ max: 10, waitMs: 0 });
    expect(batch).toHaveLength(5);
    await h.handler.handleMessages(session!, batch);

    expect(calls.filter((c) => c === 'writeBatch')).toHaveLength(1);
    expect(calls.filter((c) => c === 'writeStatus' || c === 'storeMessage')).toHaveLength(0);
    const row = (eventId: string) => h.memoryStore.getEvent({ endpointId: 'Billing', eventId });
    expect((await row(first.eventId!))?.resolutionStatus).toBe(ResolutionStatus.Completed);
    expect((await row(second.eventId!))?.resolutionStatus).toBe(ResolutionStatus.Failed);
    expect((await h.memoryStore.getEventHistory(first.eventId!)).map((m) => m.messageType)).toEqual([
      MessageType.EventRequest,
      MessageType.ResolutionResponse,
      MessageType.EventRequest,
    ]);
    expect(h.handler.stats).toMatchObject({ recorded: 4, refused: 1, batches: 1, deadLettered: 0 });
    // One live update for the committed batch, not one per message.
    expect(h.changes).toEqual([{ kind: 'endpoint', endpointId: 'Billing' }]);
    expect(await h.transport.counts(RESOLVER_INPUT)).toMatchObject({ active: 0, deadLettered: 0 });
  });
});
