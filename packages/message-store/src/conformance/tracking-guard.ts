import { type MessageType, MessageType as MT } from '@nimbus/core';
import { describe, expect, it } from 'vitest';
import type { MessageTrackingStore } from '../contracts/message-tracking-store.js';
import { type ResolutionStatus, ResolutionStatus as RS } from '../enums.js';
import { CONTROL_REQUEST_TYPES } from '../stale-write-guard.js';
import { getAs, sampleEvent, uploadAs, writeSampleRows } from './fixtures.js';
import type { OpenedStore } from './harness.js';

type Open = () => Promise<OpenedStore<MessageTrackingStore>>;

const TERMINAL: ResolutionStatus[] = [RS.Failed, RS.DeadLettered, RS.Unsupported, RS.Skipped, RS.Completed];
const CONTROL: MessageType[] = [...CONTROL_REQUEST_TYPES];

interface Step {
  status: ResolutionStatus;
  type: MessageType;
  messageId: string;
  parent?: string | null;
}

/** Writes `existing`, then `incoming`; returns the second write's result and the row afterwards. */
async function replay(open: Open, existing: Step, incoming: Step) {
  const { store, clock, id } = await open();
  const ep = id('ep');
  const eventId = id('evt');
  const write = (s: Step) =>
    uploadAs(
      store,
      s.status,
      eventId,
      's1',
      ep,
      sampleEvent(clock, ep, {
        messageType: s.type,
        lastMessageId: s.messageId,
        parentMessageId: s.parent ?? null,
      }),
    );
  expect(await write(existing)).toBe(true);
  clock.advance(1000);
  const result = await write(incoming);
  const row = await store.getEvent({ endpointId: ep, eventId });
  return { result, row };
}

/** Status a message type writes as a request-stage write. */
const requestStage = (type: MessageType): ResolutionStatus =>
  type === MT.DeferralResponse ? RS.Deferred : RS.Pending;

export function registerGuardCases(open: Open): void {
  describe('stale-write guard: refused writes return false and leave the row untouched', () => {
    for (const type of [MT.EventRequest, MT.DeferralResponse]) {
      for (const terminal of TERMINAL) {
        it(`${type} after a ${terminal} row is refused`, async () => {
          const { result, row } = await replay(
            open,
            { status: terminal, type: MT.ResolutionResponse, messageId: 'outcome' },
            { status: requestStage(type), type, messageId: 'late-copy' },
          );
          expect(result).toBe(false);
          expect(row?.resolutionStatus).toBe(terminal);
          expect(row?.lastMessageId).toBe('outcome');
        });
      }
      for (const control of CONTROL) {
        it(`${type} after a row written by ${control} is refused`, async () => {
          const { result, row } = await replay(
            open,
            { status: RS.Pending, type: control, messageId: 'control' },
            { status: requestStage(type), type, messageId: 'late-copy' },
          );
          expect(result).toBe(false);
          expect(row?.messageType).toBe(control);
        });
      }
      it(`${type} after a handoff park is refused`, async () => {
        const { result, row } = await replay(
          open,
          { status: RS.Pending, type: MT.PendingHandoffResponse, messageId: 'park' },
          { status: requestStage(type), type, messageId: 'late-copy' },
        );
        expect(result).toBe(false);
        expect(row?.messageType).toBe(MT.PendingHandoffResponse);
      });
    }

    for (const finished of [RS.Completed, RS.Skipped]) {
      it(`PendingHandoffResponse after a ${finished} row is refused`, async () => {
        const { result, row } = await replay(
          open,
          { status: finished, type: MT.ResolutionResponse, messageId: 'outcome' },
          { status: RS.Pending, type: MT.PendingHandoffResponse, messageId: 'park' },
        );
        expect(result).toBe(false);
        expect(row?.resolutionStatus).toBe(finished);
      });
    }

    for (const control of CONTROL) {
      it(`${control} whose own outcome is already stored (row's parent = its id) is refused`, async () => {
        const { result, row } = await replay(
          open,
          { status: RS.Completed, type: MT.ResolutionResponse, messageId: 'answer', parent: 'control-1' },
          { status: RS.Pending, type: control, messageId: 'control-1' },
        );
        expect(result).toBe(false);
        expect(row?.resolutionStatus).toBe(RS.Completed);
      });
    }
  });

  describe('stale-write guard: allowed writes', () => {
    it('EventRequest with no existing row is written', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      expect(await uploadAs(store, RS.Pending, id('e'), 's1', ep, sampleEvent(clock, ep))).toBe(true);
      expect(
        await store.getEventInStatus({
          key: { endpointId: ep, eventId: id('e'), sessionId: 's1' },
          status: RS.Pending,
        }),
      ).not.toBeNull();
    });

    it('EventRequest over a Pending row written by an EventRequest is written (idempotent redelivery)', async () => {
      const { result } = await replay(
        open,
        { status: RS.Pending, type: MT.EventRequest, messageId: 'm1' },
        { status: RS.Pending, type: MT.EventRequest, messageId: 'm1' },
      );
      expect(result).toBe(true);
    });

    it('EventRequest over a Deferred row written by a DeferralResponse is written', async () => {
      const { result, row } = await replay(
        open,
        { status: RS.Deferred, type: MT.DeferralResponse, messageId: 'd1' },
        { status: RS.Pending, type: MT.EventRequest, messageId: 'm2' },
      );
      expect(result).toBe(true);
      expect(row?.resolutionStatus).toBe(RS.Pending);
    });

    it('DeferralResponse over a Pending row written by an EventRequest is written', async () => {
      const { result, row } = await replay(
        open,
        { status: RS.Pending, type: MT.EventRequest, messageId: 'm1' },
        { status: RS.Deferred, type: MT.DeferralResponse, messageId: 'd1' },
      );
      expect(result).toBe(true);
      expect(row?.resolutionStatus).toBe(RS.Deferred);
    });

    for (const existing of [RS.Failed, RS.DeadLettered, RS.Unsupported, RS.Pending]) {
      it(`PendingHandoffResponse over a ${existing} row is written`, async () => {
        const { result, row } = await replay(
          open,
          { status: existing, type: MT.EventRequest, messageId: 'm1' },
          { status: RS.Pending, type: MT.PendingHandoffResponse, messageId: 'park' },
        );
        expect(result).toBe(true);
        expect(row?.messageType).toBe(MT.PendingHandoffResponse);
      });
    }

    for (const control of CONTROL) {
      it(`${control} over a Failed row answering another message is written (resubmit/skip/retry path)`, async () => {
        const { result, row } = await replay(
          open,
          { status: RS.Failed, type: MT.ErrorResponse, messageId: 'error', parent: 'original-request' },
          { status: RS.Pending, type: control, messageId: 'control-1' },
        );
        expect(result).toBe(true);
        expect(row?.resolutionStatus).toBe(RS.Pending);
        expect(row?.lastMessageId).toBe('control-1');
      });
    }

    it('a control request with no message id is not refused by a row whose parent is null', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('e'), sessionId: 's1' },
        status: RS.Failed,
        content: sampleEvent(clock, ep, { parentMessageId: null }),
      });
      const written = await store.writeStatus({
        key: { endpointId: ep, eventId: id('e'), sessionId: 's1' },
        status: RS.Pending,
        content: sampleEvent(clock, ep, { messageType: MT.RetryRequest, lastMessageId: null }),
      });
      expect(written).toBe(true);
    });

    it('a write over a removed row counts as a first write', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await writeSampleRows(store, clock, ep, [[id('e'), 's1', RS.Completed]]);
      expect(await store.removeMessage({ endpointId: ep, eventId: id('e'), sessionId: 's1' })).toBe(true);
      expect(await uploadAs(store, RS.Pending, id('e'), 's1', ep, sampleEvent(clock, ep))).toBe(true);
      expect(
        await store.getEventInStatus({
          key: { endpointId: ep, eventId: id('e'), sessionId: 's1' },
          status: RS.Pending,
        }),
      ).not.toBeNull();
    });
  });

  describe('stale-write guard: unguarded writes always apply', () => {
    for (const incoming of TERMINAL) {
      for (const existing of [RS.Completed, RS.Failed, RS.Pending]) {
        it(`terminal ${incoming} over ${existing} is written (last writer wins)`, async () => {
          const { result, row } = await replay(
            open,
            { status: existing, type: MT.ResubmissionRequest, messageId: 'first' },
            { status: incoming, type: MT.EventRequest, messageId: 'second' },
          );
          expect(result).toBe(true);
          expect(row?.resolutionStatus).toBe(incoming);
          expect(row?.lastMessageId).toBe('second');
        });
      }
    }

    for (const existing of TERMINAL) {
      it(`Pending with message type Unknown over ${existing} is written`, async () => {
        const { result, row } = await replay(
          open,
          { status: existing, type: MT.ResolutionResponse, messageId: 'outcome', parent: 'seed' },
          { status: RS.Pending, type: MT.Unknown, messageId: 'seed' },
        );
        expect(result).toBe(true);
        expect(row?.resolutionStatus).toBe(RS.Pending);
        expect(row?.messageType).toBe(MT.Unknown);
      });
    }

    it('a refused write changes nothing a reader can see', async () => {
      const { store, clock, id } = await open();
      const ep = id('ep');
      await store.writeStatus({
        key: { endpointId: ep, eventId: id('e'), sessionId: 's1' },
        status: RS.Completed,
        content: sampleEvent(clock, ep, { reason: 'done' }),
      });
      const before = await getAs(store, RS.Completed, ep, id('e'), 's1');
      clock.advance(5000);
      expect(
        await store.writeStatus({
          key: { endpointId: ep, eventId: id('e'), sessionId: 's1' },
          status: RS.Pending,
          content: sampleEvent(clock, ep, { reason: 'late' }),
        }),
      ).toBe(false);
      const after = await getAs(store, RS.Completed, ep, id('e'), 's1');
      expect(after).toEqual(before);
    });
  });
}
