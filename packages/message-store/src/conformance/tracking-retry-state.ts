import { MessageType } from '@nimbus/core';
import { describe, expect, it } from 'vitest';
import type { MessageTrackingStore } from '../contracts/message-tracking-store.js';
import type { RetryState } from '../entities/retry-state.js';
import { ResolutionStatus as RS } from '../enums.js';
import { failureSignature } from '../failure-signature.js';
import { MINUTE, sampleEvent } from './fixtures.js';
import type { OpenedStore } from './harness.js';

type Open = () => Promise<OpenedStore<MessageTrackingStore>>;

const THROTTLED = {
  messageType: MessageType.ErrorResponse,
  messageContent: {
    eventContent: null,
    errorContent: {
      errorText: 'ERP throttled the request (429), retry after 2 s',
      errorType: 'ErpThrottledError',
      exceptionStackTrace: null,
      exceptionSource: null,
    },
  },
};
const SIGNATURE = failureSignature('ErpThrottledError', THROTTLED.messageContent.errorContent.errorText).key;

/**
 * How the retry state maps onto the stored statuses: a failure the retry policy will retry is stored
 * `Failed` (the seed's meaning: its session is blocked on it) with `retry` set; such a row is in no failure
 * group. It joins one when a failure is written without `retry` (retries exhausted, or permanent).
 */
export function registerRetryStateCases(open: Open): void {
  describe('retry state', () => {
    async function writeFailure(
      { store, clock, id }: OpenedStore<MessageTrackingStore>,
      retry: RetryState | null,
    ) {
      const ep = id('ep');
      clock.advance(MINUTE);
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('t1'), sessionId: 's1' },
        status: RS.Failed,
        content: sampleEvent(clock, ep, { ...THROTTLED, lastMessageId: `m-${clock.now()}`, retry }),
      });
      const { events } = await store.getEventsByFilter({ filter: { endpointId: ep }, maxItems: 10 });
      const groups = await store.getFailureGroups({ endpointIds: [ep] });
      return { ep, row: events[0]!, groups };
    }

    it('a retrying failure round-trips its retry state, stays Failed, and is in no failure group', async () => {
      const opened = await open();
      const nextAttemptAt = new Date(opened.clock.now() + 5 * MINUTE);
      const { ep, row, groups } = await writeFailure(opened, { attempt: 1, maxAttempts: 4, nextAttemptAt });
      expect(row.resolutionStatus).toBe(RS.Failed);
      expect(row.retry).toEqual({ attempt: 1, maxAttempts: 4, nextAttemptAt });
      expect(groups).toEqual([]);
      const bySignature = await opened.store.getEventsByFilter({
        filter: { endpointId: ep, failureSignature: SIGNATURE },
        maxItems: 10,
      });
      expect(bySignature.events).toEqual([]);
      expect((await opened.store.downloadEndpointStateCount(ep)).failedCount).toBe(1);
    });

    it('a failure written without retry state (retries exhausted) joins its group; a success clears it', async () => {
      const opened = await open();
      const nextAttemptAt = new Date(opened.clock.now() + MINUTE);
      await writeFailure(opened, { attempt: 1, maxAttempts: 2, nextAttemptAt });
      const exhausted = await writeFailure(opened, null);
      expect(exhausted.row.retry).toBeNull();
      expect(exhausted.groups.map((g) => [g.signature, g.eventCount])).toEqual([[SIGNATURE, 1]]);
      await writeFailure(opened, { attempt: 1, maxAttempts: 2, nextAttemptAt });
      const { store, clock, id } = opened;
      clock.advance(MINUTE);
      await store.writeStatus({
        key: { endpointId: exhausted.ep, eventId: id('t1'), sessionId: 's1' },
        status: RS.Completed,
        content: sampleEvent(clock, exhausted.ep, { messageType: MessageType.ResolutionResponse }),
      });
      const { events } = await store.getEventsByFilter({
        filter: { endpointId: exhausted.ep },
        maxItems: 10,
      });
      expect(events.map((e) => [e.resolutionStatus, e.retry])).toEqual([[RS.Completed, null]]);
    });
  });
}
