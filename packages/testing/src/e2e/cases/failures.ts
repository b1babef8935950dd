import {
  DefaultRetryPolicyProvider,
  MessageType,
  PermanentFailureClassifier,
  RetryPolicy,
  TransientError,
} from '@nimbus/core';
import { createSubscriber } from '@nimbus/sdk';
import { describe, expect, it } from 'vitest';
import { OrderPlaced, order } from '../platform.js';
import { billingBus, type EngineEndToEnd } from './billing.js';

/** Reference §7.7 NimBus.EndToEnd.Tests: errors, retries and pending handoffs. */
export function failureCases(e2e: EngineEndToEnd): void {
  describe('error handling and retries', () => {
    it('7.7-27/28 a handler exception completes the message with one ErrorResponse; nothing escapes', async () => {
      const { bus, sales } = await billingBus(e2e, () => () => {
        throw new Error('boom');
      });
      await sales.publish(OrderPlaced, order(1));
      await expect(bus.deliverAll()).resolves.toBeDefined();
      expect(bus.responses({ type: MessageType.ErrorResponse })).toHaveLength(1);
      expect((await bus.transport.counts('Billing')).active).toBe(0);
    });

    it('7.7-29 a transient failure is neither completed nor dead-lettered until it succeeds on redelivery', async () => {
      let attempts = 0;
      const { bus, handled, sales } = await billingBus(e2e, (h) => (e) => {
        if (attempts++ < 2) throw new TransientError('db restarting');
        h.push(e);
      });
      await sales.publish(OrderPlaced, order(1));
      await bus.deliverAll();
      expect(attempts).toBe(3);
      expect(handled).toEqual([order(1)]);
      expect(bus.responses({ type: MessageType.ErrorResponse })).toHaveLength(0);
      expect(await bus.deadLetters('Billing')).toHaveLength(0);
    });

    it('7.7-30/31 with a policy: ErrorResponse then a scheduled retry that succeeds when time advances', async (context) => {
      e2e.requireManualClock(context);
      const bus = await e2e.open();
      let attempts = 0;
      const handled: unknown[] = [];
      bus.endpoint('Billing', {
        subscriber: createSubscriber().on(OrderPlaced, (e) => {
          if (attempts++ === 0) throw new Error('flaky');
          handled.push(e);
        }),
        retryPolicies: new DefaultRetryPolicyProvider().setDefaultPolicy(
          new RetryPolicy({ maxRetries: 2, baseDelayMs: 60_000 }),
        ),
      });
      await bus.publisher('Sales').publish(OrderPlaced, order(1));
      await bus.deliverAll();
      expect(handled).toEqual([]);
      const report = await bus.deliverAll({ advanceTime: true });
      expect(report.advancedMs).toBe(60_000);
      expect(handled).toEqual([order(1)]);
      expect([...bus.outcomes().values()]).toEqual([MessageType.ResolutionResponse]);
    });

    it('7.7-42/43/45 with the permanent classifier: invalid input is dead-lettered, never retried', async () => {
      class InvalidPayloadError extends Error {}
      const bus = await e2e.open();
      let attempts = 0;
      bus.endpoint('Billing', {
        subscriber: createSubscriber().on(OrderPlaced, (e) => {
          attempts++;
          if (e.orderId === 'o-1') throw new SyntaxError('bad date');
          throw new InvalidPayloadError('bad payload');
        }),
        failureClassifier: new PermanentFailureClassifier({ errorTypes: [InvalidPayloadError] }),
        retryPolicies: new DefaultRetryPolicyProvider().setDefaultPolicy(
          new RetryPolicy({ maxRetries: 5, baseDelayMs: 1 }),
        ),
      });
      await bus.publisher('Sales').publish(OrderPlaced, order(1, 'a'));
      await bus.publisher('Sales').publish(OrderPlaced, order(2, 'b'));
      await bus.deliverAll({ advanceTime: true });
      expect(attempts).toBe(2);
      const dead = await bus.deadLetters('Billing');
      expect(dead.map((d) => d.reason).sort()).toEqual([
        'Permanent failure: Error: bad payload',
        'Permanent failure: SyntaxError: bad date',
      ]);
    });

    it('7.7-44 an ordinary (network) error with the permanent classifier is retried', async () => {
      const bus = await e2e.open();
      let attempts = 0;
      bus.endpoint('Billing', {
        subscriber: createSubscriber().on(OrderPlaced, () => {
          if (attempts++ === 0) throw Object.assign(new Error('ECONNRESET'), { name: 'HttpRequestError' });
        }),
        failureClassifier: new PermanentFailureClassifier(),
        retryPolicies: new DefaultRetryPolicyProvider().setDefaultPolicy(
          new RetryPolicy({ maxRetries: 1, baseDelayMs: 5 }),
        ),
      });
      await bus.publisher('Sales').publish(OrderPlaced, order(1));
      await bus.deliverAll({ advanceTime: true });
      expect(attempts).toBe(2);
      expect(await bus.deadLetters('Billing')).toHaveLength(0);
    });
  });

  describe('asynchronous completion (pending handoff)', () => {
    it('7.7-46/47 a handoff parks siblings; completing it resolves without re-running; siblings replay in FIFO', async () => {
      const bus = await e2e.open();
      const calls: string[] = [];
      bus.endpoint('Billing', {
        subscriber: createSubscriber().on(OrderPlaced, (e, ctx) => {
          calls.push(e.orderId);
          if (e.orderId === 'o-1')
            ctx.markPendingHandoff({
              reason: 'ERP batch',
              externalJobId: 'job-1',
              expectedBy: new Date(Date.UTC(2026, 0, 2)),
            });
        }),
      });
      const sales = bus.publisher('Sales');
      for (const n of [1, 2, 3]) await sales.publish(OrderPlaced, order(n));
      await bus.deliverAll();
      const [pending] = bus.responses({ type: MessageType.PendingHandoffResponse });
      expect(pending).toMatchObject({ handoffReason: 'ERP batch', externalJobId: 'job-1' });
      expect(pending?.expectedBy?.toISOString()).toBe('2026-01-02T00:00:00.000Z');
      expect(bus.responses({ type: MessageType.DeferralResponse })).toHaveLength(2);
      expect(bus.responses({ type: MessageType.ResolutionResponse })).toHaveLength(0);
      await bus.handoff('Billing').complete(
        {
          eventId: pending!.eventId!,
          sessionId: pending!.sessionId,
          messageId: pending!.parentMessageId,
          eventTypeId: 'OrderPlaced',
        },
        { erpId: 'E-1' },
      );
      await bus.deliverAll();
      expect(calls).toEqual(['o-1', 'o-2', 'o-3']);
      expect(bus.responses({ type: MessageType.ResolutionResponse })).toHaveLength(3);
      const resolution = bus.responses({ type: MessageType.ResolutionResponse, eventId: pending!.eventId });
      expect(resolution[0]?.content.eventContent?.eventJson).toBe('{"erpId":"E-1"}');
    });

    it('7.7-48/49 failing a handoff keeps the operator text verbatim; a skip then replays the sibling', async () => {
      const bus = await e2e.open();
      const calls: string[] = [];
      bus.endpoint('Billing', {
        subscriber: createSubscriber().on(OrderPlaced, (e, ctx) => {
          calls.push(e.orderId);
          if (e.orderId === 'o-1') ctx.markPendingHandoff({ reason: 'agent' });
        }),
      });
      await bus.publisher('Sales').publish(OrderPlaced, order(1));
      await bus.publisher('Sales').publish(OrderPlaced, order(2));
      await bus.deliverAll();
      const pending = bus.responses({ type: MessageType.PendingHandoffResponse })[0]!;
      const coordinates = {
        eventId: pending.eventId!,
        sessionId: pending.sessionId,
        messageId: pending.parentMessageId,
      };
      await bus.handoff('Billing').fail(coordinates, 'Agent gave up: address unknown (#42)', 'AgentError');
      await bus.deliverAll();
      const [error] = bus.responses({ type: MessageType.ErrorResponse });
      expect(error?.content.errorContent?.errorText).toBe('Agent gave up: address unknown (#42)');
      expect(calls).toEqual(['o-1']);
      await bus.operator.skip(error!);
      await bus.deliverAll();
      expect(calls).toEqual(['o-1', 'o-2']);
      expect(bus.outcomes().get(pending.eventId!)).toBe(MessageType.SkipResponse);
    });
  });
}
