import { createEnvelope, MessageType } from '@nimbus/core';
import { describe, expect, it } from 'vitest';
import { plainStatusWrite, plainTracking, ResolutionStatus, retryStateOf } from '../src/index.js';

const at = new Date('2026-12-02T04:00:00.000Z');
const error = (extra: Parameters<typeof createEnvelope>[0] extends infer T ? Partial<T> : never) =>
  createEnvelope({
    messageId: 'm-1',
    to: 'Resolver',
    from: 'Erp',
    sessionId: 's-1',
    eventId: 'e-1',
    messageType: MessageType.ErrorResponse,
    content: {
      eventContent: { eventTypeId: 'OrderPlaced', eventJson: '{}' },
      errorContent: {
        errorText: 'throttled',
        errorType: 'Error',
        exceptionStackTrace: null,
        exceptionSource: null,
      },
    },
    ...extra,
  });

describe('projection: outcome → retry state (one mapping for the Resolver and the co-located path)', () => {
  it('an ErrorResponse with a scheduled retry is Failed with attempt n of m and the due time', () => {
    const envelope = error({ retryCount: 1, retryLimit: 3, nextRetryAt: at });
    const tracking = plainTracking({ envelope, headers: {}, enqueuedAt: at })!;
    const write = plainStatusWrite(tracking, envelope);
    expect(write.status).toBe(ResolutionStatus.Failed);
    expect(write.content.retry).toEqual({ attempt: 2, maxAttempts: 4, nextAttemptAt: at });
    expect(tracking.record.retryLimit).toBe(3);
  });

  it('no retry state: exhausted or unretried failures, dead-letter notices, other outcomes', () => {
    expect(retryStateOf(error({ retryCount: 3 }))).toBeNull();
    expect(
      retryStateOf(
        error({ retryLimit: 3, nextRetryAt: at, deadLetterErrorDescription: 'Permanent failure' }),
      ),
    ).toBeNull();
    expect(
      retryStateOf(error({ messageType: MessageType.ResolutionResponse, retryLimit: 3, nextRetryAt: at })),
    ).toBeNull();
  });
});
