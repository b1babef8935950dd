import { MessageType } from '@nimbus/core';
import { describe, expect, it } from 'vitest';
import { ResolutionStatus } from '../src/index.js';
import { decideStatusWrite } from '../src/provider.js';

const row = (
  resolutionStatus: ResolutionStatus,
  messageType: MessageType,
  parentMessageId: string | null = null,
) => ({
  resolutionStatus,
  messageType,
  parentMessageId,
});

describe('decideStatusWrite (pure rule)', () => {
  it('writes when there is no row', () => {
    expect(
      decideStatusWrite(null, {
        resolutionStatus: 'Pending',
        messageType: 'EventRequest',
        lastMessageId: 'm',
      }),
    ).toBe('write');
  });

  it('refuses a late EventRequest over a Completed row and over a handoff park', () => {
    const late = {
      resolutionStatus: ResolutionStatus.Pending,
      messageType: MessageType.EventRequest,
      lastMessageId: 'm',
    };
    expect(decideStatusWrite(row('Completed', 'ResolutionResponse'), late)).toBe('refuse');
    expect(decideStatusWrite(row('Pending', 'PendingHandoffResponse'), late)).toBe('refuse');
  });

  it('refuses a control request only when the row answers that very request', () => {
    const retry = {
      resolutionStatus: ResolutionStatus.Pending,
      messageType: MessageType.RetryRequest,
      lastMessageId: 'r1',
    };
    expect(decideStatusWrite(row('Failed', 'ErrorResponse', 'r1'), retry)).toBe('refuse');
    expect(decideStatusWrite(row('Failed', 'ErrorResponse', 'r0'), retry)).toBe('write');
  });

  it('never refuses a terminal write or an Unknown-typed write', () => {
    expect(
      decideStatusWrite(row('Completed', 'ResolutionResponse'), {
        resolutionStatus: 'Failed',
        messageType: 'ErrorResponse',
        lastMessageId: 'x',
      }),
    ).toBe('write');
    expect(
      decideStatusWrite(row('Completed', 'ResolutionResponse'), {
        resolutionStatus: 'Pending',
        messageType: 'Unknown',
        lastMessageId: 'x',
      }),
    ).toBe('write');
  });
});
