import { TransportError, TransportErrorCode } from '@nimbus/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './support/harness.js';
import { ERP, FAILED_EVENT } from './support/seed.js';
import { memoryStores } from './support/store-factories.js';

// A database restart while an operator acts: the WebApp answers 503 with retry-after, not 500 (the chaos suite
// saw 500s during its PostgreSQL restart).
describe('WebApp: a backing service that is down for a moment', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(memoryStores);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('answers 503 ServiceUnavailable with retry-after when the transport fails with a retryable error', async () => {
    const publish = h.transport.publish.bind(h.transport);
    h.transport.publish = async () => {
      throw new TransportError(TransportErrorCode.ServiceUnavailable, 'database restarting');
    };
    try {
      const answer = await h.admin.post(`/api/endpoints/${ERP}/events/${FAILED_EVENT}/skip`, {});
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('2');
      expect((answer.body as { error: string }).error).toBe('ServiceUnavailable');
    } finally {
      h.transport.publish = publish;
    }
    expect((await h.admin.post(`/api/endpoints/${ERP}/events/${FAILED_EVENT}/skip`, {})).status).toBe(200);
  });
});
