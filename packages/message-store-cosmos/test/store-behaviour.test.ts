import { randomUUID } from 'node:crypto';
import { ManualClock, MessageType } from '@nimbus/core';
import { StorageProviderTransientError } from '@nimbus/message-store';
import { describe, expect, it } from 'vitest';
import {
  COSMOS_ENV,
  createCosmosMessageStore,
  LostWriteRaceError,
  resolveCosmosConnection,
} from '../src/index.js';
import { advanceLocalServerClock } from '../src/local-server/index.js';
import { startCosmosTestServer } from './support/cosmos-test-server.js';

const DAY_S = 86_400;
const request = (lastMessageId = 'm-1') => ({
  enqueuedTimeUtc: new Date(),
  messageType: MessageType.EventRequest,
  lastMessageId,
});

/** Requests the test wants answered with an error instead of by the server. */
const faults: {
  match: (method: string, url: string) => boolean;
  status: number;
  headers?: Record<string, string>;
}[] = [];
const seen: string[] = [];
const cosmos = await startCosmosTestServer({
  intercept: (req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const fault = faults.find((f) => f.match(req.method ?? '', req.url ?? ''));
    if (!fault) return false;
    res.writeHead(fault.status, { 'content-type': 'application/json', ...fault.headers });
    res.end(JSON.stringify({ code: String(fault.status), message: 'injected by the test' }));
    return true;
  },
});

async function withStore<T>(
  run: (store: Awaited<ReturnType<typeof cosmos.openStore>>['store']) => Promise<T>,
  options: Parameters<typeof cosmos.openStore>[0] = {},
) {
  const { store, cleanup } = await cosmos.openStore(options);
  try {
    return await run(store);
  } finally {
    faults.length = 0;
    await cleanup();
  }
}

async function rawRow(databaseId: string, endpointId: string, id: string, sessionId: string) {
  const { resource } = await cosmos
    .client()
    .database(databaseId)
    .container(endpointId)
    .item(id, sessionId)
    .read();
  return resource as Record<string, unknown> | undefined;
}

describe('layout and retention stamps', () => {
  it('creates every container with TTL on and no default (defaultTtl = -1), endpoint containers on first write', async () => {
    await withStore(async (store) => {
      await store.writeStatus({
        key: { endpointId: 'billing', eventId: 'e1', sessionId: 's1' },
        status: 'Pending',
        content: request(),
      });
      const db = cosmos.client().database(store.databaseId);
      const { resources } = await db.containers.readAll().fetchAll();
      const byId = new Map(resources.map((c) => [c.id, c]));
      expect([...byId.keys()].sort()).toEqual([
        'Metadata',
        'audits',
        'billing',
        'eventreports',
        'messages',
        'subscriptions',
      ]);
      for (const c of resources) expect(c.defaultTtl).toBe(-1);
      expect(byId.get('billing')?.partitionKey?.paths).toEqual(['/sessionId']);
    });
  });

  it('writes the retention table as item ttl: unresolved per the option, terminal 30 d, removed 60 s, archived 30 d', async () => {
    await withStore(
      async (store) => {
        const db = store.databaseId;
        await store.writeStatus({
          key: { endpointId: 'ep', eventId: 'f', sessionId: 's' },
          status: 'Failed',
          content: request(),
        });
        expect((await rawRow(db, 'ep', 'f_s', 's'))?.ttl).toBe(180 * DAY_S);
        await store.writeStatus({
          key: { endpointId: 'ep', eventId: 'c', sessionId: 's' },
          status: 'Completed',
          content: request(),
        });
        expect((await rawRow(db, 'ep', 'c_s', 's'))?.ttl).toBe(30 * DAY_S);
        await store.writeStatus({
          key: { endpointId: 'ep', eventId: 'r', sessionId: 's' },
          status: 'Pending',
          content: request(),
        });
        await store.removeMessage({ endpointId: 'ep', eventId: 'r', sessionId: 's' });
        expect((await rawRow(db, 'ep', 'r_s', 's'))?.ttl).toBe(60);
        await store.archiveFailedEvent({ endpointId: 'ep', eventId: 'f', sessionId: 's' });
        expect((await rawRow(db, 'ep', 'f_s', 's'))?.ttl).toBe(30 * DAY_S);
      },
      { retention: { unresolvedRetentionDays: 180 } },
    );
    await withStore(async (store) => {
      await store.writeStatus({
        key: { endpointId: 'ep', eventId: 'p', sessionId: 's' },
        status: 'Pending',
        content: request(),
      });
      expect((await rawRow(store.databaseId, 'ep', 'p_s', 's'))?.ttl).toBe(-1);
    });
  });

  it('Cosmos expires rows from their last write: a rewrite restarts the window, a removed row is gone after 60 s', async () => {
    await withStore(
      async (store) => {
        await store.writeStatus({
          key: { endpointId: 'ep', eventId: 'kept', sessionId: 's' },
          status: 'Failed',
          content: request(),
        });
        await store.writeStatus({
          key: { endpointId: 'ep', eventId: 'lapsed', sessionId: 's' },
          status: 'Failed',
          content: request(),
        });
        await store.writeStatus({
          key: { endpointId: 'ep', eventId: 'removed', sessionId: 's' },
          status: 'Pending',
          content: request(),
        });
        await store.removeMessage({ endpointId: 'ep', eventId: 'removed', sessionId: 's' });
        advanceLocalServerClock(61_000);
        expect(await rawRow(store.databaseId, 'ep', 'removed_s', 's')).toBeUndefined();
        advanceLocalServerClock(23 * 3_600_000);
        await store.writeStatus({
          key: { endpointId: 'ep', eventId: 'kept', sessionId: 's' },
          status: 'Failed',
          content: request('m-2'),
        });
        advanceLocalServerClock(2 * 3_600_000);
        expect(
          await store.getEventInStatus({
            key: { endpointId: 'ep', eventId: 'lapsed', sessionId: 's' },
            status: 'Failed',
          }),
        ).toBeNull();
        expect(
          (
            await store.getEventInStatus({
              key: { endpointId: 'ep', eventId: 'kept', sessionId: 's' },
              status: 'Failed',
            })
          )?.lastMessageId,
        ).toBe('m-2');
      },
      { retention: { unresolvedRetentionDays: 1 } },
    );
  });

  it('history messages carry 90 days and audits one year', async () => {
    await withStore(async (store) => {
      await store.storeMessage({
        eventId: 'e',
        messageId: 'm',
        endpointId: 'ep',
        enqueuedTimeUtc: new Date(),
        messageType: MessageType.EventRequest,
      });
      await store.storeMessageAudit({
        eventId: 'e',
        audit: { auditorName: 'op', auditTimestamp: new Date(), auditType: 'Comment' },
      });
      const db = cosmos.client().database(store.databaseId);
      const { resource: message } = await db.container('messages').item('m', 'e').read();
      expect(message?.ttl).toBe(90 * DAY_S);
      const { resources: audits } = await db
        .container('audits')
        .items.query('SELECT c.ttl FROM c')
        .fetchAll();
      expect(audits).toEqual([{ ttl: 365 * DAY_S }]);
    });
  });

  it('encodes characters Cosmos does not allow in ids, and keeps ids case-sensitive', async () => {
    await withStore(async (store) => {
      await store.writeStatus({
        key: { endpointId: 'Billing', eventId: 'order/42?#', sessionId: 'cust\\7' },
        status: 'Pending',
        content: request(),
      });
      await store.writeStatus({
        key: { endpointId: 'billing', eventId: 'order/42?#', sessionId: 'cust\\7' },
        status: 'Pending',
        content: request('other'),
      });
      expect(
        (await store.getEventById({ endpointId: 'Billing', id: 'order/42?#_cust\\7' }))?.lastMessageId,
      ).toBe('m-1');
      expect(
        (
          await store.getEventInStatus({
            key: { endpointId: 'billing', eventId: 'order/42?#', sessionId: 'cust\\7' },
            status: 'Pending',
          })
        )?.lastMessageId,
      ).toBe('other');
    });
  });
});

describe('the stale-write guard under a lost compare-and-swap', () => {
  const replaceOf = (docId: string) => (method: string, url: string) =>
    method === 'PUT' && url.endsWith(`/docs/${docId}`);

  it('a lost compare-and-swap (412) is decided again against the row the other writer left', async () => {
    await withStore(async (store) => {
      const key = { endpointId: 'ep', eventId: 'e', sessionId: 's' };
      await store.writeStatus({ key, status: 'Pending', content: request() });
      let lost = 0;
      faults.push({
        // The first replace loses, as if another writer had changed the row after our read.
        match: (method, url) => {
          if (!replaceOf('e_s')(method, url) || lost > 0) return false;
          lost += 1;
          return true;
        },
        status: 412,
      });
      const completing = store.writeStatus({
        key,
        status: 'Deferred',
        content: { ...request('m-2'), messageType: MessageType.DeferralResponse },
      });
      expect(await completing).toBe(true);
      expect(lost).toBe(1);
      expect((await store.getEventInStatus({ key: key, status: 'Deferred' }))?.lastMessageId).toBe('m-2');
    });
  });

  it('a write that keeps losing the race (5 times) throws a retryable lost race, never reports a refusal', async () => {
    await withStore(async (store) => {
      await store.writeStatus({
        key: { endpointId: 'ep', eventId: 'e', sessionId: 's' },
        status: 'Pending',
        content: request(),
      });
      faults.push({ match: replaceOf('e_s'), status: 412 });
      const error = await store
        .writeStatus({
          key: { endpointId: 'ep', eventId: 'e', sessionId: 's' },
          status: 'Deferred',
          content: { ...request('m-2'), messageType: MessageType.DeferralResponse },
        })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LostWriteRaceError);
      expect(error).toMatchObject({ code: 'Transient', isRetryable: true });
      faults.length = 0;
      expect(
        (
          await store.getEventInStatus({
            key: { endpointId: 'ep', eventId: 'e', sessionId: 's' },
            status: 'Pending',
          })
        )?.lastMessageId,
      ).toBe('m-1');
    });
  });

  it('tryCompletePending is one IfMatch replace: a 412 answers false', async () => {
    await withStore(async (store) => {
      await store.writeStatus({
        key: { endpointId: 'ep', eventId: 'e', sessionId: 's' },
        status: 'Pending',
        content: request(),
      });
      faults.push({ match: replaceOf('e_s'), status: 412 });
      expect(
        await store.tryCompletePending({
          key: { endpointId: 'ep', eventId: 'e', sessionId: 's' },
          expectedLastMessageId: 'm-1',
          content: {
            ...request('m-9'),
            messageType: MessageType.ResolutionResponse,
          },
        }),
      ).toBe(false);
      faults.length = 0;
      expect(
        await store.tryCompletePending({
          key: { endpointId: 'ep', eventId: 'e', sessionId: 's' },
          expectedLastMessageId: 'm-1',
          content: {
            ...request('m-9'),
            messageType: MessageType.ResolutionResponse,
          },
        }),
      ).toBe(true);
    });
  });
});

describe('throttling', () => {
  const pointRead = (method: string, url: string) => method === 'GET' && url.includes('/docs/');

  it('429s are retried by the SDK after the service retry-after', async () => {
    await withStore(async (store) => {
      await store.writeStatus({
        key: { endpointId: 'ep', eventId: 'e', sessionId: 's' },
        status: 'Pending',
        content: request(),
      });
      let left = 2;
      faults.push({
        match: (m, u) => pointRead(m, u) && left-- > 0,
        status: 429,
        headers: { 'x-ms-retry-after-ms': '20', 'x-ms-substatus': '3200' },
      });
      const before = seen.length;
      expect(
        (
          await store.getEventInStatus({
            key: { endpointId: 'ep', eventId: 'e', sessionId: 's' },
            status: 'Pending',
          })
        )?.eventId,
      ).toBe('e');
      expect(seen.slice(before).filter((r) => r.startsWith('GET') && r.includes('/docs/'))).toHaveLength(3);
    });
  });

  it('when retries run out the 429 surfaces as a transient error with its retry-after', async () => {
    await withStore(async (store) => {
      await store.writeStatus({
        key: { endpointId: 'ep', eventId: 'e', sessionId: 's' },
        status: 'Pending',
        content: request(),
      });
      faults.push({ match: pointRead, status: 429, headers: { 'x-ms-retry-after-ms': '15' } });
      const error = await store
        .getEventInStatus({ key: { endpointId: 'ep', eventId: 'e', sessionId: 's' }, status: 'Pending' })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StorageProviderTransientError);
      expect(error).toMatchObject({ isRetryable: true, retryAfterMs: 15 });
      expect((error as Error).message).toMatch(/429/);
    });
  });
});

describe('configuration', () => {
  it('an invalid unresolvedRetentionDays fails the open, naming the option and the value', async () => {
    const client = cosmos.client();
    await expect(
      createCosmosMessageStore({ client, env: { NIMBUS_STORE_UNRESOLVED_RETENTION_DAYS: '400' } }),
    ).rejects.toThrow(/unresolvedRetentionDays "400".*NIMBUS_STORE_UNRESOLVED_RETENTION_DAYS/);
    await expect(
      createCosmosMessageStore({ client, env: {}, retention: { unresolvedRetentionDays: 0 } }),
    ).rejects.toMatchObject({
      option: 'unresolvedRetentionDays',
      value: 0,
    });
  });

  it('resolves the account endpoint first, then the connection string; errors name the variables', () => {
    const env = {
      [COSMOS_ENV.accountEndpoint]: 'https://acct.documents.azure.com:443/',
      [COSMOS_ENV.connectionString]:
        'AccountEndpoint=https://other.documents.azure.com:443/;AccountKey=a2V5;',
    };
    expect(resolveCosmosConnection({ env })).toMatchObject({
      kind: 'aad',
      endpoint: 'https://acct.documents.azure.com/',
    });
    expect(
      resolveCosmosConnection({ env: { [COSMOS_ENV.connectionString]: env[COSMOS_ENV.connectionString] } }),
    ).toMatchObject({
      kind: 'key',
      endpoint: 'https://other.documents.azure.com/',
      key: 'a2V5',
    });
    expect(() => resolveCosmosConnection({ env: {} })).toThrow(
      /NIMBUS_COSMOS_ACCOUNT_ENDPOINT.*NIMBUS_COSMOS_CONNECTION_STRING/,
    );
    expect(() =>
      resolveCosmosConnection({ env: { [COSMOS_ENV.connectionString]: 'AccountKey=secret' } }),
    ).toThrow(/needs AccountEndpoint/);
    expect(() =>
      resolveCosmosConnection({ env: { [COSMOS_ENV.connectionString]: 'AccountKey=secret' } }),
    ).not.toThrow(/secret/);
    expect(() => resolveCosmosConnection({ accountEndpoint: 'http://acct' })).toThrow(/must use https/);
  });

  it('opens from a connection string (key auth) with the test CA, and creates the database it names', async () => {
    const databaseId = `t-${randomUUID()}`;
    const store = await createCosmosMessageStore({
      env: {
        [COSMOS_ENV.connectionString]: cosmos.server.connectionString,
        [COSMOS_ENV.database]: databaseId,
      },
      agent: cosmos.server.agent,
      clientOptions: { connectionPolicy: { enableEndpointDiscovery: false } },
      clock: new ManualClock(Date.UTC(2026, 0, 1)),
    });
    try {
      expect(store.databaseId).toBe(databaseId);
      expect(store.providerName).toBe('Cosmos DB');
      expect(store.capabilities.supportsCrossAccountCopy).toBe(false);
      expect(
        await store.writeStatus({
          key: { endpointId: 'ep', eventId: 'e', sessionId: '' },
          status: 'Pending',
          content: request(),
        }),
      ).toBe(true);
      expect(
        (
          await store.getEventInStatus({
            key: { endpointId: 'ep', eventId: 'e', sessionId: '' },
            status: 'Pending',
          })
        )?.updatedAt,
      ).toEqual(new Date(Date.UTC(2026, 0, 1)));
    } finally {
      await store.close();
      await cosmos.client().database(databaseId).delete();
    }
  });
});
