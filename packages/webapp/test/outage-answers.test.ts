import { TransportError, TransportErrorCode } from '@nimbus/core';
import { StorageProviderTransientError } from '@nimbus/message-store';
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

describe('WebApp: a read that hits the database lock timeout', () => {
  let h: Harness;
  let failReads = false;
  beforeAll(async () => {
    h = await startHarness({
      name: 'memory store failing reads on demand',
      async create() {
        const stores = await memoryStores.create();
        const store = new Proxy(stores.store, {
          get(target, property, receiver) {
            const value = Reflect.get(target, property, receiver);
            if (property !== 'getEventsByFilter' || typeof value !== 'function') return value;
            return (...args: unknown[]) => {
              if (!failReads) return value.apply(target, args);
              throw new StorageProviderTransientError(
                'The PostgreSQL message store is temporarily unavailable.',
                null,
                {
                  cause: Object.assign(
                    new Error('canceling statement due to lock timeout (127.0.0.1:5432)'),
                    {
                      code: '55P03',
                    },
                  ),
                },
              );
            };
          },
        });
        return { ...stores, store };
      },
    });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('answers 503 reason DatabaseTimeout with Retry-After, without the database address', async () => {
    failReads = true;
    try {
      const answer = await h.admin.get(`/api/endpoints/${ERP}/events?status=Failed`);
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('5');
      expect(answer.body).toMatchObject({ error: 'ServiceUnavailable', reason: 'DatabaseTimeout' });
      expect(JSON.stringify(answer.body)).not.toMatch(/127\.0\.0\.1|5432/);
    } finally {
      failReads = false;
    }
    expect((await h.admin.get(`/api/endpoints/${ERP}/events?status=Failed`)).status).toBe(200);
  });
});
