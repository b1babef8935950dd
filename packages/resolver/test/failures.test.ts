import {
  encodeEnvelope,
  MessageType,
  RESOLVER_INPUT,
  TransportError,
  TransportErrorCode,
} from '@nimbus/core';
import { ResolutionStatus, StorageProviderTransientError } from '@nimbus/message-store';
import {
  CONTENTION_RETRY_MS,
  DeadLetterReasons,
  isStoreContention,
  MAX_THROTTLE_RETRIES,
  throttleDelayMs,
} from '@nimbus/resolver';
import { whileAdvancing } from '@nimbus/testing';
import { describe, expect, it } from 'vitest';
import { withFaults } from '../src/e2e/index.js';
import { createHarness } from './support/harness.js';
import { eventRequest, responseTo } from './support/messages.js';

const outage =
  (retryAfterMs: number | null = null) =>
  () =>
    new StorageProviderTransientError('SQL store is temporarily unavailable.', retryAfterMs);

async function _scheduledCopy(h: Awaited<ReturnType<typeof createHarness>>, afterMs: number) {
  h.clock.advance(afterMs - 1);
  expect((await h.transport.counts(RESOLVER_INPUT)).active).toBe(0);
  h.clock.advance(1);
  const [copy] = await h.transport.peek(RESOLVER_INPUT);
  return copy;
}

describe('throttle back-off', () => {
  it('doubles from 5 s and caps at 300 s; a longer provider retry-after wins', () => {
    const sequence = Array.from({ length: MAX_THROTTLE_RETRIES }, (_, n) => throttleDelayMs(n, null) / 1000);
    expect(sequence).toEqual([5, 10, 20, 40, 80, 160, 300, 300, 300, 300]);
    expect(throttleDelayMs(2, 17_000)).toBe(20_000);
    expect(throttleDelayMs(0, 60_000)).toBe(60_000);
  });
});

describe('Resolver under store failures', () => {
  it('retries a transient failure in place, waiting a longer retry-after, and records it when the store is back', async () => {
    const h = await createHarness({
      store: (memory) =>
        withFaults(memory, [
          { method: 'statusWrite', status: ResolutionStatus.Pending, error: outage(17_000), times: 1 },
        ]),
    });
    const request = eventRequest({ throttleRetryCount: 2 });
    await h.send(request);
    const started = h.clock.now();
    await whileAdvancing(h.clock, h.drain());
    // n=2 gives 20 s, longer than the 17 s hint; no copy is scheduled behind later messages.
    expect(h.clock.now() - started).toBeGreaterThanOrEqual(20_000);
    expect(await h.transport.counts(RESOLVER_INPUT)).toMatchObject({
      active: 0,
      scheduled: 0,
      deadLettered: 0,
    });
    const row = await h.memoryStore.getEventInStatus({
      key: { endpointId: 'Billing', eventId: request.eventId!, sessionId: request.sessionId },
      status: ResolutionStatus.Pending,
    });
    expect(row).toMatchObject({ to: 'Billing', from: 'Crm', lastMessageId: request.messageId });
    expect(await h.memoryStore.getEventHistory(request.eventId!)).toHaveLength(1);
    expect(h.handler.stats).toMatchObject({ rescheduled: 1, recorded: 1, deadLettered: 0 });
  });

  it('never lets a later outcome of the session overtake one that hit a transient store error', async () => {
    const h = await createHarness({
      store: (memory) =>
        withFaults(memory, [
          { method: 'statusWrite', status: ResolutionStatus.Failed, error: outage(), times: 1 },
        ]),
    });
    const request = eventRequest();
    await h.send(request);
    await h.drain();
    // The handler failed, then the operator's fix made it succeed: both outcomes sit in the session, in order.
    await h.send(responseTo(request, MessageType.ErrorResponse));
    await h.send(responseTo(request, MessageType.ResolutionResponse));
    await whileAdvancing(h.clock, h.drain());
    const row = await h.memoryStore.getEvent({ endpointId: 'Billing', eventId: request.eventId! });
    expect(row?.resolutionStatus).toBe(ResolutionStatus.Completed);
    expect((await h.memoryStore.getEventHistory(request.eventId!)).map((m) => m.messageType)).toEqual([
      MessageType.EventRequest,
      MessageType.ErrorResponse,
      MessageType.ResolutionResponse,
    ]);
    expect(await h.transport.counts(RESOLVER_INPUT)).toMatchObject({
      active: 0,
      scheduled: 0,
      deadLettered: 0,
    });
  });

  it('dead-letters with a readable reason once the retries are used up', async () => {
    const h = await createHarness({
      store: (memory) => withFaults(memory, [{ method: 'storeMessage', error: outage() }]),
    });
    await h.send(eventRequest({ throttleRetryCount: MAX_THROTTLE_RETRIES }));
    await h.drain();
    const [dead] = await h.transport.peekDeadLetters(RESOLVER_INPUT);
    expect(dead?.reason).toBe(DeadLetterReasons.maxThrottleRetries);
    expect(dead?.description).toContain('temporarily unavailable');
    expect((await h.transport.counts(RESOLVER_INPUT)).scheduled).toBe(0);
  });

  it('walks the whole back-off schedule in place against a store that never recovers, then dead-letters', async () => {
    const h = await createHarness({
      store: (memory) =>
        withFaults(memory, [{ method: 'statusWrite', status: ResolutionStatus.Pending, error: outage() }]),
    });
    await h.send(eventRequest());
    const started = h.clock.now();
    await whileAdvancing(h.clock, h.drain(), 5_000);
    const schedule = Array.from({ length: MAX_THROTTLE_RETRIES }, (_, n) => throttleDelayMs(n, null));
    expect(schedule.reduce((a, b) => a + b, 0)).toBe(1_515_000); // 5+10+20+40+80+160+4·300 s
    expect(h.clock.now() - started).toBeGreaterThanOrEqual(1_515_000);
    expect(h.handler.stats).toMatchObject({ rescheduled: MAX_THROTTLE_RETRIES, deadLettered: 1 });
    expect(await h.transport.counts(RESOLVER_INPUT)).toMatchObject({
      active: 0,
      scheduled: 0,
      deadLettered: 1,
    });
  });

  it('dead-letters a non-transient store failure with the error text', async () => {
    const h = await createHarness({
      store: (memory) =>
        withFaults(memory, [
          {
            method: 'statusWrite',
            status: ResolutionStatus.Completed,
            error: () => new RangeError('bad column'),
          },
        ]),
    });
    const request = eventRequest();
    await h.send(responseTo(request, MessageType.ResolutionResponse));
    await h.drain();
    const [dead] = await h.transport.peekDeadLetters(RESOLVER_INPUT);
    expect(dead).toMatchObject({ reason: DeadLetterReasons.failed, description: 'RangeError: bad column' });
  });

  it('dead-letters a malformed message with the list of problems', async () => {
    const h = await createHarness();
    const wire = encodeEnvelope(eventRequest());
    const { EventId: _, MessageType: __, ...headers } = wire.headers;
    await h.send({ ...wire, headers: { ...headers, MessageType: 'Bogus' }, body: 'not json' });
    await h.drain();
    const [dead] = await h.transport.peekDeadLetters(RESOLVER_INPUT);
    expect(dead?.reason).toBe(DeadLetterReasons.invalidMessage);
    expect(dead?.description).toContain("unknown MessageType 'Bogus'");
    expect(dead?.description).toContain("missing required header 'EventId'");
    expect(dead?.description).toContain('body is not valid JSON');
  });

  it('lets a settlement failure propagate without dead-lettering (the processor retries the session)', async () => {
    const h = await createHarness();
    await h.send(eventRequest());
    const session = await h.transport.acceptSession(RESOLVER_INPUT, { waitMs: 0 });
    const [message] = await session!.receive({ max: 1, waitMs: 0 });
    const lost = new TransportError(TransportErrorCode.SessionLockLost, 'lock lost');
    const failingSession = Object.assign(Object.create(Object.getPrototypeOf(session)), session, {
      complete: async () => {
        throw lost;
      },
      deadLetter: async () => {
        throw new Error('must not dead-letter');
      },
    });
    await expect(h.handler.handleMessage(failingSession, message!)).rejects.toBe(lost);
    await session!.release();
    expect(await h.transport.counts(RESOLVER_INPUT)).toMatchObject({ active: 1, deadLettered: 0 });
  });
});

describe('Resolver under store contention (a lock or statement timeout)', () => {
  const lockTimeout = () =>
    new StorageProviderTransientError('The PostgreSQL message store is temporarily unavailable.', null, {
      cause: Object.assign(new Error('canceling statement due to lock timeout'), { code: '55P03' }),
    });

  it('retries in place every CONTENTION_RETRY_MS without using up the outage retries, and records the write', async () => {
    const times = MAX_THROTTLE_RETRIES * 2;
    const h = await createHarness({
      store: (memory) =>
        withFaults(memory, [
          { method: 'statusWrite', status: ResolutionStatus.Pending, error: lockTimeout, times },
        ]),
    });
    const request = eventRequest();
    await h.send(request);
    const started = h.clock.now();
    await whileAdvancing(h.clock, h.drain(), CONTENTION_RETRY_MS);
    expect(h.clock.now() - started).toBeGreaterThanOrEqual(times * CONTENTION_RETRY_MS);
    expect(h.clock.now() - started).toBeLessThan(times * CONTENTION_RETRY_MS + throttleDelayMs(0, null));
    expect(h.handler.stats).toMatchObject({ rescheduled: 0, deadLettered: 0 });
    expect(await h.transport.counts(RESOLVER_INPUT)).toMatchObject({ active: 0, deadLettered: 0 });
    const row = await h.memoryStore.getEventInStatus({
      key: { endpointId: 'Billing', eventId: request.eventId!, sessionId: request.sessionId },
      status: ResolutionStatus.Pending,
    });
    expect(row).not.toBeNull();
  });

  it('tells contention from an outage by the driver error anywhere in the cause chain', () => {
    expect(isStoreContention(lockTimeout())).toBe(true);
    expect(isStoreContention(outage()())).toBe(false);
    expect(
      isStoreContention(
        new StorageProviderTransientError('x', null, {
          cause: Object.assign(new Error('busy'), { code: 'SQLITE_BUSY' }),
        }),
      ),
    ).toBe(true);
  });
});
