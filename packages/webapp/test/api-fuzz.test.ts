import { shouldRunPostgresSuite } from '@nimbus/testing/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from './support/api-client.js';
import type { Harness } from './support/harness.js';
import { startOidcHarness } from './support/oidc-sign-in.js';
import { type Operation, operationsOf, sampleOf, urlOf } from './support/openapi-operations.js';
import { BLOCKED_SESSION, ERP, FAILED_EVENT } from './support/seed.js';
import { memoryStores, postgresStores, type StoreFactory, sqliteStores } from './support/store-factories.js';

/** Hostile values for any field: wrong types, huge, NUL and control characters, SQL, regex, paths. */
const STRINGS = [
  '',
  'x'.repeat(20_000),
  'a\u0000b',
  '\u0001\u0007\u001b[31m\r\n\t',
  "' OR 1=1; DROP TABLE messages; --",
  '(a+)+$.*[',
  '%00%ZZ%',
  '\ud800',
  '-1',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 🚌',
];
const WRONG_TYPES: unknown[] = [-1, true, null, [1, 'x'], { $gt: '' }];
const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

function* requestsFor(
  operation: Operation,
  base: { url: string; body: unknown },
  params: Record<string, string>,
) {
  const encodable = STRINGS.filter((v) => v !== '' && v !== '\ud800');
  for (const name of operation.pathParams) {
    for (const value of encodable) {
      yield { url: urlOf(operation, { ...params, [name]: value }), body: base.body, what: `path ${name}` };
    }
    // Invalid UTF-8 and overlong encodings, sent as they are.
    for (const raw of ['%ED%A0%80', '%C0%AF', '%FF', '%']) {
      const url = urlOf(operation, { ...params, [name]: 'RAW' }).replace('RAW', raw);
      yield { url, body: base.body, what: `path ${name} raw ${raw}` };
    }
  }
  for (const { name } of operation.query) {
    for (const value of [
      ...STRINGS.filter((v) => v !== '\ud800'),
      '[object Object]',
      'NaN',
      '99999999999999999999',
    ]) {
      const query = `${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
      yield { url: `${base.url}?${query}`, body: base.body, what: `query ${name}` };
    }
    yield { url: `${base.url}?${name}=%ED%A0%80%FF`, body: base.body, what: `query ${name} invalid UTF-8` };
    yield {
      url: `${base.url}?${name}=1&${name}=2&${name}[a]=3`,
      body: base.body,
      what: `query ${name} repeated`,
    };
  }
  if (!operation.bodySchema) return;
  const body = (base.body ?? {}) as Record<string, unknown>;
  for (const key of Object.keys({ ...body, ...((operation.bodySchema.properties as object) ?? {}) })) {
    for (const value of [...STRINGS, ...WRONG_TYPES]) {
      yield { url: base.url, body: { ...body, [key]: value }, what: `body ${key}` };
    }
  }
  for (const raw of [
    deep(2000),
    `{"a":${deep(40)}}`,
    '{"unterminated": ',
    'not json',
    '[]',
    '"x"',
    'null',
    '{"__proto__":{"admin":true}}',
  ]) {
    yield { url: base.url, body: raw, what: 'raw body' };
  }
}

export function describeApiFuzz(factory: StoreFactory): void {
  describe(`API fuzz (${factory.name})`, () => {
    let h: Harness;
    let oidc: ApiClient;
    let closeAll: (() => Promise<void>) | undefined;
    beforeAll(async () => {
      const started = await startOidcHarness(factory);
      ({ h, oidcClient: oidc, close: closeAll } = started);
    }, 120_000);
    afterAll(async () => {
      await closeAll?.();
    });

    it('answers no hostile request to any route of the OpenAPI document with a 5xx', async () => {
      const params: Record<string, string> = {
        endpointId: ERP,
        eventId: FAILED_EVENT,
        sessionId: BLOCKED_SESSION,
        userId: 'no-such-user',
        tokenId: 'no-such-token',
        jobId: 'no-such-job',
        eventTypeId: 'CustomerChanged',
        input: ERP,
        deadLetterId: 'no-such-dead-letter',
        subscriptionId: 'no-such-subscription',
      };
      const operations = operationsOf(h.webApp.openApi)
        // Signing out would end the session every other request uses; a stream stays open (no input to fuzz).
        .filter((o) => o.key !== 'POST /account/logout' && !o.streaming);
      const failures: string[] = [];
      let sent = 0;
      const all = operations.flatMap((operation) => {
        const base = {
          url: urlOf(operation, params),
          body: operation.bodySchema ? sampleOf(operation.bodySchema) : undefined,
        };
        return [...requestsFor(operation, base, params)].map((request) => ({ operation, ...request }));
      });
      // A few at a time: hashing work (sign-in) overlaps with the rest, as it would under real load.
      // Every other request as the principal signed in through the OIDC provider.
      let turn = 0;
      const send = async () => {
        for (let next = all.shift(); next; next = all.shift()) {
          const { operation, url, body, what } = next;
          const client = turn++ % 2 === 0 ? h.admin : oidc;
          const result = await client.request(
            operation.method,
            url,
            body ?? (operation.method === 'GET' ? undefined : {}),
          );
          sent++;
          if (result.status >= 500)
            failures.push(
              `${operation.key} ${what}: ${result.status} ${JSON.stringify(result.body).slice(0, 200)}`,
            );
        }
      };
      await Promise.all(Array.from({ length: 6 }, send));
      expect(sent).toBeGreaterThan(800);
      expect(failures).toEqual([]);
      // The session survived the whole run (nothing crashed, nothing signed it out).
      expect((await h.admin.get('/api/endpoints')).status).toBe(200);
      expect((await oidc.get('/api/endpoints')).status).toBe(200);
    }, 180_000);
  });
}

const runPg = await shouldRunPostgresSuite('API fuzz on PostgreSQL');
describeApiFuzz(memoryStores);
describeApiFuzz(sqliteStores);
describe.runIf(runPg)('on PostgreSQL', () => describeApiFuzz(postgresStores));
