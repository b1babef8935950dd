import { MessageType, NimBusError, NimBusErrorCode, RESOLVER_INPUT } from '@nimbus/core';
import {
  HANDOFF_SUB_STATUS,
  InProcessStateChangeNotifier,
  type OpenMessageStore,
  ResolutionStatus,
  StorageProviderTransientError,
  type UnresolvedEvent,
} from '@nimbus/message-store';
import { whileAdvancing } from '@nimbus/testing';
import type { EndToEndFixture, EndToEndTransportFactory } from '@nimbus/testing/e2e';
import { afterEach, describe, expect, it } from 'vitest';
import { Bus, CONSUMER, type Payload } from './bus.js';
import { withFaults } from './faulty-store.js';

export interface ResolverEndToEndOptions {
  /** The store the Resolver projects into; buses may share one (each uses its own session and fresh ids). */
  readonly openStore: () => Promise<OpenMessageStore>;
  /**
   * A fresh, empty transport per case, as for the engine suite (`@nimbus/testing/e2e`). A transport with a
   * co-located store projection is given the bus's notifier for it (`notifier`).
   */
  readonly openTransport:
    | EndToEndTransportFactory
    | ((notifier: InProcessStateChangeNotifier) => Promise<EndToEndFixture>);
  /**
   * `colocated`: the transport records plain outcomes in the store itself, in its own transactions (SQL transport
   * and SQL store in one database); the Resolver receives only the rest. Default `resolver`.
   */
  readonly shape?: 'resolver' | 'colocated';
}

/**
 * The scenarios every store provider and every transport must pass with the real engine and the Resolver:
 * registered as `Resolver end to end (name)`. The caller opens and closes its stores; the suite closes each
 * case's transport and runs its cleanup.
 */
export function describeResolverEndToEnd(name: string, options: ResolverEndToEndOptions) {
  const colocated = options.shape === 'colocated';
  describe(`Resolver end to end (${name})`, () => {
    const opened: EndToEndFixture[] = [];

    afterEach(async () => {
      for (const fixture of opened.splice(0)) {
        await fixture.transport.close();
        await fixture.cleanup();
      }
    });

    async function bus(wrap?: (store: OpenMessageStore) => OpenMessageStore) {
      const store = await options.openStore();
      const notifier = new InProcessStateChangeNotifier();
      const fixture = await options.openTransport(notifier);
      opened.push(fixture);
      return new Bus(wrap ? wrap(store) : store, fixture, notifier).start();
    }

    async function rowOf(b: Bus, id: string): Promise<UnresolvedEvent> {
      const eventId = b.eventIds.get(id);
      const row = eventId ? await b.store.getEvent({ endpointId: CONSUMER, eventId }) : null;
      if (!row) throw new NimBusError(NimBusErrorCode.ExpectationFailed, `no row for payload ${id}`);
      return row;
    }

    async function historyTypes(b: Bus, id: string) {
      const row = await rowOf(b, id);
      return (await b.store.getEventHistory(row.eventId)).map((m) => m.messageType);
    }

    const ok = (id: string): Payload => ({ id, mode: 'ok' });

    it('happy path: Pending then Completed, with the request and the outcome in history', async () => {
      const b = await bus();
      await b.publish(ok('a'));
      await b.pump();
      const row = await rowOf(b, 'a');
      expect(row).toMatchObject({
        resolutionStatus: ResolutionStatus.Completed,
        endpointId: CONSUMER,
        from: CONSUMER,
      });
      expect(await historyTypes(b, 'a')).toEqual([MessageType.EventRequest, MessageType.ResolutionResponse]);
      expect(await b.store.getMessageAudits(row.eventId)).toEqual([]);
      // Notifications go out after each commit without holding up the settlement: wait for them.
      await expect.poll(() => b.changes.filter((c) => c.kind === 'endpoint').length).toBe(2);
      // Co-located, both rows were written in the bus's own transactions: nothing reached the Resolver.
      if (colocated) expect(b.resolver.stats.recorded).toBe(0);
      else expect(b.resolver.stats.recorded).toBe(2);
    });

    it('handler failure: Failed and the session blocked; siblings Deferred; resubmit completes all in order', async () => {
      const b = await bus();
      await b.publish({ id: 'a', mode: 'fail' });
      await b.publish(ok('b'));
      await b.publish(ok('c'));
      await b.pump();
      const failed = await rowOf(b, 'a');
      expect(failed.resolutionStatus).toBe(ResolutionStatus.Failed);
      expect(failed.messageContent.errorContent?.errorText).toBe('cannot book customer a');
      // b and c were parked before their handler ran: the session's blocked list shows them Deferred.
      const blocked = await b.store.getBlockedEventsOnSession({
        endpointId: CONSUMER,
        sessionId: b.session,
        skip: 0,
        take: 100,
      });
      expect(blocked.items.map((i) => i.status)).toEqual([
        ResolutionStatus.Deferred,
        ResolutionStatus.Deferred,
      ]);
      expect(await b.store.getEndpointErrorList(CONSUMER)).toContain(failed.eventId);

      b.healed.add('a');
      await b.operator(MessageType.ResubmissionRequest, failed, failed.messageContent);
      await b.pump();
      for (const id of ['a', 'b', 'c'])
        expect((await rowOf(b, id)).resolutionStatus).toBe(ResolutionStatus.Completed);
      expect(blocked.items.map((i) => i.eventId).sort()).toEqual(
        [b.eventIds.get('b'), b.eventIds.get('c')].sort(),
      );
      expect(b.handled).toEqual(['a', 'a', 'b', 'c']);
      expect(await historyTypes(b, 'b')).toEqual([
        MessageType.EventRequest,
        MessageType.DeferralResponse,
        MessageType.ResolutionResponse,
      ]);
      expect(await historyTypes(b, 'a')).toEqual([
        MessageType.EventRequest,
        MessageType.ErrorResponse,
        MessageType.ResubmissionRequest,
        MessageType.ResolutionResponse,
      ]);
    });

    it('skip: the failed event is Skipped and its deferred sibling completes', async () => {
      const b = await bus();
      await b.publish({ id: 'a', mode: 'fail' });
      await b.publish(ok('b'));
      await b.pump();
      const failed = await rowOf(b, 'a');
      await b.operator(MessageType.SkipRequest, failed, failed.messageContent);
      await b.pump();
      expect((await rowOf(b, 'a')).resolutionStatus).toBe(ResolutionStatus.Skipped);
      expect((await rowOf(b, 'b')).resolutionStatus).toBe(ResolutionStatus.Completed);
      expect(b.handled).toEqual(['a', 'b']);
    });

    it('automatic retry: Failed, then Completed when the scheduled retry succeeds', async () => {
      const b = await bus();
      await b.publish({ id: 'a', mode: 'flaky' });
      await b.pump();
      expect((await rowOf(b, 'a')).resolutionStatus).toBe(ResolutionStatus.Failed);
      await b.elapse(b.retryDelayMs);
      await b.pump();
      expect((await rowOf(b, 'a')).resolutionStatus).toBe(ResolutionStatus.Completed);
      expect(b.handled).toEqual(['a', 'a']);
    });

    it('handoff: Pending(Handoff), then Pending when settled, then Completed', async () => {
      const b = await bus();
      await b.publish({ id: 'a', mode: 'handoff' });
      await b.pump();
      const parked = await rowOf(b, 'a');
      expect(parked).toMatchObject({
        resolutionStatus: ResolutionStatus.Pending,
        pendingSubStatus: HANDOFF_SUB_STATUS,
        externalJobId: 'job-a',
        handoffReason: 'Waiting for ERP batch',
      });
      expect(
        await b.store.getPendingHandoffByExternalJobId({ endpointId: CONSUMER, externalJobId: 'job-a' }),
      ).not.toBeNull();
      await b.operator(MessageType.HandoffCompletedRequest, parked, parked.messageContent);
      await b.pump();
      const done = await rowOf(b, 'a');
      expect(done).toMatchObject({ resolutionStatus: ResolutionStatus.Completed, pendingSubStatus: null });
      expect(await historyTypes(b, 'a')).toEqual([
        MessageType.EventRequest,
        MessageType.PendingHandoffResponse,
        MessageType.HandoffCompletedRequest,
        MessageType.ResolutionResponse,
      ]);
    });

    it('unsupported: no handler for the type gives Unsupported', async () => {
      const b = await bus();
      await b.publish({ id: 'a', mode: 'unsupported' });
      await b.pump();
      expect((await rowOf(b, 'a')).resolutionStatus).toBe(ResolutionStatus.Unsupported);
    });

    it('poison: DeadLettered with the reason, and the message is in the endpoint dead-letter queue', async () => {
      const b = await bus();
      await b.publish({ id: 'a', mode: 'poison' });
      await b.pump();
      const row = await rowOf(b, 'a');
      expect(row.resolutionStatus).toBe(ResolutionStatus.DeadLettered);
      expect(row.deadLetterReason).toContain('Permanent failure');
      expect(row.reason).toContain('has no account number');
      expect(await b.transport.peekDeadLetters(CONSUMER)).toHaveLength(1);
    });

    // Co-located, the plain writes happen in the transport's transactions, never through the store object.
    it.skipIf(colocated)(
      'a transient store failure is retried in place: the outcome never overtakes its request',
      async () => {
        const b = await bus((store) =>
          withFaults(store, [
            {
              method: 'statusWrite',
              status: ResolutionStatus.Pending,
              error: () => new StorageProviderTransientError('lock timeout'),
              times: 1,
            },
          ]),
        );
        await b.publish(ok('a'));
        await whileAdvancing(b.clock, b.pump(), 250);
        expect((await rowOf(b, 'a')).resolutionStatus).toBe(ResolutionStatus.Completed);
        expect(b.resolver.stats).toMatchObject({ rescheduled: 1, refused: 0 });
        expect(await b.transport.counts(RESOLVER_INPUT)).toMatchObject({
          active: 0,
          scheduled: 0,
          deadLettered: 0,
        });
      },
    );
  });
}
