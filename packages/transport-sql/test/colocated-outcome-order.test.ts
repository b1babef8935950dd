import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Addresses,
  createEnvelope,
  encodeEnvelope,
  type MessageEnvelope,
  MessageType,
  uuidv7,
} from '@nimbus/core';
import { ResolutionStatus } from '@nimbus/message-store';
import { createSqlColocatedProjection, createSqlMessageStore } from '@nimbus/message-store-sql';
import { afterEach, describe, expect, it } from 'vitest';
import { createSqlTransport } from '../src/index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const content = (errorText: string | null) => ({
  eventContent: { eventTypeId: 'Crm.CustomerChanged', eventJson: '{}' },
  errorContent:
    errorText === null
      ? null
      : { errorText, errorType: 'Error', exceptionStackTrace: null, exceptionSource: null },
});

/** An outcome the Billing endpoint sends to the Resolver for `event`, answering `parent`. */
function outcome(
  event: MessageEnvelope,
  parent: MessageEnvelope,
  messageType: MessageType,
  originatingFrom: string,
  errorText: string | null = null,
): MessageEnvelope {
  return createEnvelope({
    messageId: uuidv7(),
    to: Addresses.resolver,
    from: 'Billing',
    sessionId: event.sessionId,
    correlationId: event.correlationId,
    messageType,
    eventId: event.eventId,
    eventTypeId: event.eventTypeId,
    parentMessageId: parent.messageId,
    originatingMessageId: event.messageId,
    originatingFrom,
    content: content(errorText),
  });
}

describe('co-located tracking keeps every outcome of a session on one path', () => {
  it("a resubmission's failure (an outcome of a Manager request) is projected in the transaction, so the retry's later Completed is never overwritten by it", {
    timeout: 60_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nimbus-outcome-order-'));
    dirs.push(dir);
    const filename = join(dir, 'bus.db');
    const store = await createSqlMessageStore({
      dialect: 'sqlite',
      filename,
      retentionSweep: false,
      env: {},
    });
    const projection = createSqlColocatedProjection({ dialect: 'sqlite', filename, env: {} });
    const transport = await createSqlTransport({ dialect: 'sqlite', path: filename }, { projection });
    try {
      await transport.applyTopology({
        endpoints: ['Crm', 'Billing'],
        routes: [{ source: 'Crm', eventTypeId: 'Crm.CustomerChanged', target: 'Billing' }],
      });
      const eventId = uuidv7();
      const event = createEnvelope({
        messageId: uuidv7(),
        to: 'Crm.CustomerChanged',
        sessionId: 'customer-1',
        correlationId: 'corr-1',
        messageType: MessageType.EventRequest,
        eventId,
        eventTypeId: 'Crm.CustomerChanged',
        originatingFrom: 'Crm',
        content: content(null),
      });
      await transport.publish([{ source: 'Crm', messages: [encodeEnvelope(event)] }]);
      // The operator's resubmission fails with an error the retry policy retries (its outcome answers the
      // Manager), then the scheduled retry succeeds: two outcomes of one session, in this order.
      const resubmission = { ...event, messageId: uuidv7(), messageType: MessageType.ResubmissionRequest };
      const failed = outcome(event, resubmission, MessageType.ErrorResponse, Addresses.manager, 'ERP busy');
      await transport.publish([{ source: 'Billing', messages: [encodeEnvelope(failed)] }]);
      const completed = outcome(event, failed, MessageType.ResolutionResponse, 'Billing');
      await transport.publish([{ source: 'Billing', messages: [encodeEnvelope(completed)] }]);

      // Nothing of it waits for the Resolver, where the older failure would land after the Completed.
      expect(await transport.counts(Addresses.resolver)).toMatchObject({ active: 0, scheduled: 0 });
      const row = await store.getEvent({ endpointId: 'Billing', eventId });
      expect(row?.resolutionStatus).toBe(ResolutionStatus.Completed);
      const history = await store.getEventHistory(eventId);
      expect(history.map((h) => h.messageType).filter((type) => type !== MessageType.EventRequest)).toEqual([
        MessageType.ErrorResponse,
        MessageType.ResolutionResponse,
      ]);
    } finally {
      await transport.close();
      await store.close();
    }
  });
});
