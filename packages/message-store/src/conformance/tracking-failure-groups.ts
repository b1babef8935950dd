import { MessageType } from '@nimbus/core';
import { describe, expect, it } from 'vitest';
import type { MessageTrackingStore } from '../contracts/message-tracking-store.js';
import { ResolutionStatus as RS } from '../enums.js';
import { failureSignature } from '../failure-signature.js';
import { MINUTE, sampleEvent } from './fixtures.js';
import type { OpenedStore } from './harness.js';

type Open = () => Promise<OpenedStore<MessageTrackingStore>>;

const failure = (errorText: string, errorType = 'ValidationError') => ({
  messageType: MessageType.ErrorResponse,
  messageContent: {
    eventContent: null,
    errorContent: { errorText, errorType, exceptionStackTrace: 'at check()', exceptionSource: null },
  },
});

const VAT = failureSignature('ValidationError', "VAT number 'x' rejected").key;
const LOCKED = failureSignature('ValidationError', 'customer 42 locked').key;

export function registerFailureGroupCases(open: Open): void {
  describe('failure groups', () => {
    /** Two causes on `ep` (VAT in 2 sessions ×2 events, one locked), one VAT failure on `other`. */
    async function seed({ store, clock, id }: OpenedStore<MessageTrackingStore>) {
      const ep = id('ep');
      const other = id('other');
      const write = async (
        endpointId: string,
        eventId: string,
        sessionId: string,
        status: RS,
        extra = {},
      ) => {
        clock.advance(MINUTE);
        await store.writeStatus({
          key: { endpointId, eventId: id(eventId), sessionId },
          status,
          content: sampleEvent(clock, endpointId, extra),
        });
      };
      await write(ep, 'v1', 's1', RS.Failed, failure("VAT number 'DK123' rejected"));
      await write(ep, 'v2', 's1', RS.Failed, failure("VAT number 'SE987' rejected"));
      await write(ep, 'v3', 's2', RS.DeadLettered, failure("VAT number 'NL1' rejected"));
      await write(ep, 'l1', 's3', RS.Failed, failure('customer 42 locked'));
      await write(ep, 'p1', 's4', RS.Pending);
      await write(ep, 'c1', 's4', RS.Completed);
      await write(other, 'v4', 's1', RS.Failed, failure("VAT number 'FI55' rejected"));
      return { ep, other };
    }

    it('groups Failed and DeadLettered rows per endpoint by signature, with counts and first/last seen', async () => {
      const opened = await open();
      const { ep, other } = await seed(opened);
      const groups = await opened.store.getFailureGroups({ endpointIds: [ep, other] });
      expect(groups.map((g) => [g.endpointIds, g.signature])).toEqual([
        [[other], VAT],
        [[ep], LOCKED],
        [[ep], VAT],
      ]);
      const vat = groups[2]!;
      expect(vat).toMatchObject({
        errorType: 'ValidationError',
        normalisedMessage: 'VAT number <value> rejected',
        eventCount: 3,
        sessionCount: 2,
        failedCount: 2,
        deadLetteredCount: 1,
        eventTypeIds: ['OrderPlaced'],
        exampleErrorText: "VAT number 'NL1' rejected",
      });
      const t0 = opened.clock.now() - 7 * MINUTE;
      expect(vat.firstSeen.getTime()).toBe(t0 + MINUTE);
      expect(vat.lastSeen.getTime()).toBe(t0 + 3 * MINUTE);
    });

    it('groups across endpoints: one group per signature, sessions counted by id, endpoints listed', async () => {
      const opened = await open();
      const { ep, other } = await seed(opened);
      const groups = await opened.store.getFailureGroups({ endpointIds: [ep, other], acrossEndpoints: true });
      expect(groups.map((g) => g.signature)).toEqual([VAT, LOCKED]);
      expect(groups[0]).toMatchObject({
        endpointIds: [ep, other].sort(),
        eventCount: 4,
        sessionCount: 2,
        exampleErrorText: "VAT number 'FI55' rejected",
      });
      const only = await opened.store.getFailureGroups({ endpointIds: [other], acrossEndpoints: true });
      expect(only.map((g) => [g.endpointIds, g.eventCount])).toEqual([[[other], 1]]);
      expect(await opened.store.getFailureGroups({ endpointIds: [] })).toEqual([]);
      const bySignature = await opened.store.getFailureGroups({
        endpointIds: [ep, other],
        signature: LOCKED,
      });
      expect(bySignature.map((g) => g.eventCount)).toEqual([1]);
    });

    it('a row leaves its group when rewritten out of failure or removed, and rejoins when it fails again', async () => {
      const opened = await open();
      const { store, clock, id } = opened;
      const { ep } = await seed(opened);
      const vatOf = async () =>
        (await store.getFailureGroups({ endpointIds: [ep], signature: VAT }))[0]?.eventCount ?? 0;
      clock.advance(MINUTE);
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('v1'), sessionId: 's1' },
        status: RS.Pending,
        content: sampleEvent(clock, ep, {
          messageType: MessageType.ResubmissionRequest,
          lastMessageId: 'r1',
        }),
      });
      expect(await vatOf()).toBe(2);
      await store.removeMessage({ endpointId: ep, eventId: id('v2'), sessionId: 's1' });
      expect(await vatOf()).toBe(1);
      clock.advance(MINUTE);
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('v1'), sessionId: 's1' },
        status: RS.Failed,
        content: sampleEvent(clock, ep, failure("VAT number 'DK124' rejected")),
      });
      const [vat] = await store.getFailureGroups({ endpointIds: [ep], signature: VAT });
      expect(vat).toMatchObject({ eventCount: 2, sessionCount: 2 });
      expect(vat!.lastSeen.getTime()).toBe(clock.now());
    });

    it('groups a dead-lettered row without error content by its dead-letter reason', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('d1'), sessionId: 's1' },
        status: RS.DeadLettered,
        content: sampleEvent(clock, ep, {
          messageContent: { eventContent: null, errorContent: null },
          deadLetterReason: 'MaxDeliveryCountExceeded',
          deadLetterErrorDescription: 'Delivered 10 times',
        }),
      });
      const [group] = await store.getFailureGroups({ endpointIds: [ep] });
      expect(group).toMatchObject({
        signature: 'MaxDeliveryCountExceeded: Delivered <n> times',
        deadLetteredCount: 1,
        exampleErrorText: 'Delivered 10 times',
      });
    });

    it('the event search finds exactly the rows of a group by its signature', async () => {
      const opened = await open();
      const { ep } = await seed(opened);
      const { events } = await opened.store.getEventsByFilter({
        filter: { endpointId: ep, failureSignature: VAT },
        maxItems: 50,
      });
      expect(events.map((e) => e.eventId).sort()).toEqual(
        [opened.id('v1'), opened.id('v2'), opened.id('v3')].sort(),
      );
    });
  });
}
