// Reference 7.7-50/51 (adapted): the inbox wired into a real endpoint engine over the in-memory transport.
import { defineEndpoint, defineEvent, definePlatform, MessageType, silentLogger } from '@nimbus/core';
import { createSubscriber, Publisher } from '@nimbus/sdk';
import { createTestBus } from '@nimbus/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createInbox,
  createOutboxTransport,
  MemoryInboxStore,
  MemoryOutboxStore,
  OutboxDispatcher,
} from '../src/index.js';

/* jscpd:ignore-start */ // the test's own two-endpoint platform, read beside the assertions on Crm, Erp and sessions by orderId
const OrderPlaced = defineEvent('OrderPlaced', {
  schema: z.object({ orderId: z.string() }),
  sessionKey: 'orderId',
});
const platform = definePlatform([
  defineEndpoint('Crm', { produces: [OrderPlaced] }),
  defineEndpoint('Erp', { consumes: [OrderPlaced] }),
]);
/* jscpd:ignore-end */

function setup(handle: (orderId: string) => void) {
  const bus = createTestBus({ platform });
  const store = new MemoryInboxStore({ clock: bus.clock });
  const inbox = createInbox({ store, clock: bus.clock, logger: silentLogger });
  const subscriber = createSubscriber().on(OrderPlaced, (order) => handle(order.orderId));
  bus.endpoint('Erp', { subscriber, inbox });
  return { bus, inbox, store };
}

describe('inbox at an endpoint (reference 7.7-50/51, adapted)', () => {
  it('7.7-50 an outbox-dispatched message is handled and recorded; dispatching it again does not run the handler', async () => {
    const handled: string[] = [];
    const { bus, inbox } = setup((id) => handled.push(id));
    const rows = new MemoryOutboxStore({ clock: bus.clock });
    // The dispatcher "crashes" between sending and marking once: the same row goes out again next poll.
    let crashes = 1;
    const outbox = new Proxy(rows, {
      get(target, property) {
        if (property === 'markAsDispatched' && crashes-- > 0) {
          return async () => {
            throw new Error('process killed before the checkpoint');
          };
        }
        const value = Reflect.get(target, property);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const publisher = new Publisher({
      transport: createOutboxTransport(bus.transport, outbox),
      endpoint: 'Crm',
      platform,
      clock: bus.clock,
    });
    const receipt = await publisher.publish(OrderPlaced, { orderId: 'o-1' });
    const dispatcher = new OutboxDispatcher({ outbox, transport: bus.transport, logger: silentLogger });
    await dispatcher.dispatchPending().catch(() => undefined);
    await bus.deliverAll();
    expect(handled).toEqual(['o-1']);
    expect(await inbox.check('Erp', receipt.messageId)).toBe('duplicate');

    expect(await dispatcher.dispatchPending()).toBe(1);
    await bus.deliverAll();

    expect(handled).toEqual(['o-1']);
    expect(bus.responses({ type: MessageType.ResolutionResponse })).toHaveLength(1);
    const skips = bus.responses({ type: MessageType.SkipResponse });
    expect(skips).toHaveLength(1);
    expect(skips[0]).toMatchObject({
      parentMessageId: receipt.messageId,
      from: 'Erp',
      sessionId: 'o-1',
      content: { errorContent: { errorText: 'DuplicateDetected' } },
    });
    expect(skips[0]?.eventId).toBeTruthy();
    expect(await bus.deadLetters('Erp')).toHaveLength(0);
  });

  it('7.7-51 a failed first attempt is not recorded: the redelivery runs again and records; a third copy is skipped', async () => {
    let attempts = 0;
    const { bus, inbox } = setup(() => {
      attempts += 1;
      if (attempts === 1) throw new Error('ERP timed out');
    });
    const publisher = bus.publisher('Crm');
    const receipt = await publisher.publish(OrderPlaced, { orderId: 'o-2' });
    await bus.deliverAll();
    expect(attempts).toBe(1);
    expect(await inbox.check('Erp', receipt.messageId)).toBe('process');

    await bus.operator.resubmit(bus.responses({ type: MessageType.ErrorResponse })[0]!);
    await bus.deliverAll();
    expect(attempts).toBe(2);
    expect(await inbox.check('Erp', receipt.messageId)).toBe('process');
    // The resubmission was recorded under its own id; the original id is recorded once the original is
    // delivered again and succeeds.
    await publisher.publish(OrderPlaced, { orderId: 'o-2' }, { messageId: receipt.messageId });
    await bus.deliverAll();
    expect(attempts).toBe(3);
    expect(await inbox.check('Erp', receipt.messageId)).toBe('duplicate');

    await publisher.publish(OrderPlaced, { orderId: 'o-2' }, { messageId: receipt.messageId });
    await bus.deliverAll();
    expect(attempts).toBe(3);
    expect(bus.responses({ type: MessageType.SkipResponse })).toHaveLength(1);
  });
});
