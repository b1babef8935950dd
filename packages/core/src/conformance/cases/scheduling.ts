import { expect, it } from 'vitest';
import { TransportErrorCode } from '../../transport/transport-error.js';
import { bodiesOf, type Harness, message } from '../harness.js';

export function schedulingCases(harness: () => Harness): void {
  it('keeps a scheduled message invisible until its time, then delivers it', async () => {
    const h = harness();
    const delayMs = 300;
    await h.transport.schedule(
      'Erp',
      message({ sessionId: 'later', to: 'Retry', body: 'retry-1' }),
      new Date(h.now() + delayMs),
    );
    expect(await h.transport.counts('Erp')).toMatchObject({ active: 0, scheduled: 1 });
    expect(await h.tryAccept('Erp', 'later')).toBeNull();
    await h.elapse(delayMs + 50);
    const session = await h.accept('Erp', 'later');
    const received = await h.receiveOne(session);
    expect(received.body).toBe('retry-1');
    expect(received.headers).toMatchObject({ To: 'Erp', From: 'Retry' });
    expect(await h.transport.counts('Erp')).toMatchObject({ active: 1, scheduled: 0 });
  });

  it('holds back a publish with a future enqueueAt', async () => {
    const h = harness();
    const delayMs = 300;
    await h.transport.publish([
      {
        source: 'Erp',
        messages: [message({ sessionId: 'deferred', to: 'Erp', body: 'x' })],
        enqueueAt: new Date(h.now() + delayMs),
      },
    ]);
    expect(await h.tryAccept('Erp', 'deferred')).toBeNull();
    await h.elapse(delayMs + 50);
    const session = await h.accept('Erp', 'deferred');
    expect(bodiesOf(await h.receiveAll(session, 1))).toEqual(['x']);
  });

  it('cancels a scheduled message so it is never delivered; unknown or repeated cancels give MessageNotFound', async () => {
    const h = harness();
    const handle = await h.transport.schedule(
      'Erp',
      message({ sessionId: 'cancelled', to: 'Retry', body: 'never' }),
      new Date(h.now() + 60_000),
    );
    expect((await h.transport.counts('Erp')).scheduled).toBe(1);
    await h.transport.cancelScheduled(handle);
    expect((await h.transport.counts('Erp')).scheduled).toBe(0);
    await expect(h.transport.cancelScheduled(handle)).rejects.toMatchObject({
      code: TransportErrorCode.MessageNotFound,
    });
    await expect(h.transport.cancelScheduled({ id: 'no-such-handle', source: 'Erp' })).rejects.toMatchObject({
      code: TransportErrorCode.MessageNotFound,
    });
  });
}
