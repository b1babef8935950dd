import { describe, expect, it } from 'vitest';
import { type AuditedWrite, checkWriteOrder } from './write-order.js';

// The write-order rule of the chaos checker, on hand-made audit logs: what the final store cannot show.
let position = 0;
const enqueue = (eventId: string, messageType: string, seq: number, sessionId = 's'): AuditedWrite => ({
  position: ++position,
  kind: 'enqueue',
  sessionId,
  eventId,
  messageId: `${eventId}-${messageType}`,
  seq,
  messageType,
  status: null,
  endpointId: null,
});
const history = (put: AuditedWrite): AuditedWrite => ({
  ...put,
  position: ++position,
  kind: 'history',
  seq: null,
  endpointId: 'Warehouse',
});
const status = (put: AuditedWrite, value: string): AuditedWrite => ({
  ...history(put),
  kind: 'status',
  status: value,
});

describe('chaos checker: the Resolver write order', () => {
  it('accepts a session recorded in input order, a message recorded twice and a copy re-enqueued later', () => {
    position = 0;
    const failed = enqueue('e1', 'ErrorResponse', 1);
    const next = enqueue('e2', 'ResolutionResponse', 2);
    const writes = [
      failed,
      next,
      history(failed),
      history(failed),
      history(next),
      enqueue('e1', 'ErrorResponse', 9),
    ];
    expect(checkWriteOrder(writes)).toEqual({
      overtaken: [],
      reopened: [],
      historyWrites: 2,
      historyUnmatched: 0,
      statusWrites: 0,
    });
  });

  it('reports a message recorded after a later one of its session (a rescheduled copy), once', () => {
    position = 0;
    const failed = enqueue('e1', 'ErrorResponse', 1);
    const later = [enqueue('e2', 'DeferralResponse', 2), enqueue('e3', 'DeferralResponse', 3)];
    const other = enqueue('x1', 'ResolutionResponse', 1, 'other');
    const copy = enqueue('e1', 'ErrorResponse', 4);
    const writes = [failed, ...later, other, ...later.map(history), copy, history(other), history(copy)];
    const result = checkWriteOrder(writes, (eventId) => `o/${eventId.slice(1)}`);
    expect(result.overtaken).toEqual([
      'session s: ErrorResponse of o/1 was recorded after DeferralResponse of o/3, put on the Resolver input after it',
    ]);
  });

  it('reports a Completed or Skipped row written back to another status, even when it ends right', () => {
    position = 0;
    const done = enqueue('e1', 'ResolutionResponse', 1);
    const late = enqueue('e1', 'ErrorResponse', 2);
    const writes = [status(done, 'Completed'), status(late, 'Failed'), status(done, 'Completed')];
    expect(checkWriteOrder(writes).reopened).toEqual([
      'e1 at Warehouse: Completed written back to Failed (by a ErrorResponse e1-ErrorResponse, after the ResolutionResponse e1-ResolutionResponse)',
    ]);
    const skipped = enqueue('e2', 'SkipResponse', 3);
    expect(checkWriteOrder([status(late, 'Failed'), status(skipped, 'Skipped')]).reopened).toEqual([]);
  });

  it('counts history records of messages it never saw enqueued apart', () => {
    position = 0;
    const unseen = { ...enqueue('e1', 'ResolutionResponse', 1), kind: 'history' as const, seq: null };
    expect(checkWriteOrder([unseen]).historyUnmatched).toBe(1);
  });
});
