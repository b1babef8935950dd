import { shouldRunPostgresSuite } from '@nimbus/testing/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from './support/api-client.js';
import { CONTRIBUTOR, type Harness, READER } from './support/harness.js';
import { startOidcHarness } from './support/oidc-sign-in.js';
import { type Operation, operationsOf, sampleOf, urlOf } from './support/openapi-operations.js';
import {
  BLOCKED_SESSION,
  ERP,
  FAILED_EVENT,
  HANDOFF_EVENT,
  OTHER_FAILED_EVENT,
  PENDING_EVENT,
} from './support/seed.js';
import { memoryStores, postgresStores, type StoreFactory, sqliteStores } from './support/store-factories.js';

type Json = Record<string, unknown>;
type Principal = 'anonymous' | 'Reader' | 'Contributor' | 'Owner' | 'CrmOwner' | 'OidcContributor';
const PRINCIPALS: Principal[] = [
  'anonymous',
  'Reader',
  'Contributor',
  'Owner',
  'CrmOwner',
  'OidcContributor',
];

/**
 * Who may call each route. `public`: anyone; `signedIn`: any signed-in user (data is filtered to what the
 * user may see); otherwise the role needed site-wide or on the endpoint in the path (Erp here — the
 * CrmOwner holds Owner on Crm only, so it is refused everything on Erp). A route missing here fails.
 */
type Rule = 'public' | 'signedIn' | { role: 'Reader' | 'Contributor' | 'Owner'; scope: 'site' | 'endpoint' };
const site = (role: 'Reader' | 'Contributor' | 'Owner'): Rule => ({ role, scope: 'site' });
const endpoint = (role: 'Reader' | 'Contributor' | 'Owner'): Rule => ({ role, scope: 'endpoint' });
const E = '/api/endpoints/{endpointId}';
const EV = `${E}/events/{eventId}`;

const RULES: Record<string, Rule> = {
  'POST /account/login': 'public',
  'GET /openapi.json': 'public',
  'GET /api/docs': 'public',
  'GET /healthz': 'public',
  'GET /readyz': 'public',
  // A stream: the matrix reads its status only (an open stream counts as allowed).
  'GET /api/live': 'signedIn',
  'GET /api/auth/me': 'public',
  'GET /api/auth/sign-in-modes': 'public',
  // The single sign-on flow: redirects to and from the provider (the callback without a sign-in in progress: 400).
  'GET /account/oidc/login': 'public',
  'GET /account/oidc/callback': 'public',
  'GET /account/oidc/signed-out': 'public',
  'GET /api/app/status': 'public',
  'POST /account/logout': 'signedIn',
  'POST /account/change-password': 'signedIn',
  'GET /api/account/tokens': 'signedIn',
  'POST /api/account/tokens': 'signedIn',
  'DELETE /api/account/tokens/{tokenId}': 'signedIn',
  'GET /api/endpoints': 'signedIn',
  'GET /api/bulk-jobs/{jobId}': 'signedIn',
  // Job routes find the job first (404 for one the caller may not read), then need Contributor on its endpoints.
  'GET /api/bulk-jobs': 'signedIn',
  'GET /api/bulk-jobs/{jobId}/items': 'signedIn',
  'POST /api/bulk-jobs/{jobId}/cancel': 'signedIn',
  'POST /api/bulk-jobs/{jobId}/resume': 'signedIn',
  'GET /api/failure-groups': 'signedIn',
  [`GET ${E}/failure-groups`]: endpoint('Reader'),
  [`GET ${E}/alert-snoozes`]: endpoint('Reader'),
  [`POST ${E}/alert-snoozes`]: endpoint('Contributor'),
  [`DELETE ${E}/alert-snoozes`]: endpoint('Contributor'),
  // Contributor on every endpoint named in the body (Erp here: the OIDC principal's Erp grant suffices).
  'POST /api/bulk-jobs': endpoint('Contributor'),
  [`GET ${E}`]: endpoint('Reader'),
  [`GET ${E}/sessions/{sessionId}`]: endpoint('Reader'),
  [`POST ${E}/sessions/batch`]: endpoint('Reader'),
  [`GET ${E}/sessions/{sessionId}/blocked`]: endpoint('Reader'),
  [`GET ${E}/blocked-sessions`]: endpoint('Reader'),
  [`GET ${E}/events`]: endpoint('Reader'),
  [`GET ${EV}`]: endpoint('Reader'),
  [`GET ${EV}/history`]: endpoint('Reader'),
  [`GET ${EV}/audits`]: endpoint('Reader'),
  [`GET ${E}/event-types/{eventTypeId}/schema`]: endpoint('Reader'),
  [`DELETE ${EV}`]: endpoint('Contributor'),
  [`POST ${EV}/resubmit`]: endpoint('Contributor'),
  [`POST ${EV}/resubmit-with-changes`]: endpoint('Contributor'),
  [`POST ${EV}/skip`]: endpoint('Contributor'),
  [`POST ${EV}/comments`]: endpoint('Contributor'),
  [`POST ${EV}/handoff/complete`]: endpoint('Contributor'),
  [`POST ${EV}/handoff/fail`]: endpoint('Contributor'),
  [`POST ${EV}/reconcile`]: endpoint('Contributor'),
  [`POST ${E}/sessions/{sessionId}/reprocess-deferred`]: endpoint('Contributor'),
  [`POST ${E}/bulk`]: endpoint('Contributor'),
  'PUT /api/users/{userId}/endpoint-roles/{endpointId}': endpoint('Owner'),
  // The dead-letter lists of an endpoint input (Erp here); the Resolver's own list is site-wide.
  'GET /api/dead-letters/{input}': endpoint('Reader'),
  'GET /api/dead-letters/{input}/{deadLetterId}': endpoint('Reader'),
  'POST /api/dead-letters/{input}/requeue': endpoint('Contributor'),
  'POST /api/dead-letters/{input}/purge': endpoint('Owner'),
  // Monitoring (#26): the overviews are filtered to what the caller may read; pause and thresholds are per input.
  'GET /api/dead-letters': 'signedIn',
  'GET /api/monitoring': 'signedIn',
  'GET /api/custom-checks': 'signedIn',
  'POST /api/monitoring/{input}/pause': endpoint('Contributor'),
  'POST /api/monitoring/{input}/resume': endpoint('Contributor'),
  'PUT /api/monitoring/{input}/thresholds': endpoint('Owner'),
  'GET /api/messages': site('Reader'),
  'GET /api/events': site('Reader'),
  'GET /api/audits': site('Owner'),
  'GET /api/metrics/overview': site('Reader'),
  'GET /api/metrics/latency': site('Reader'),
  'GET /api/metrics/timeseries': site('Reader'),
  'GET /api/metrics/endpoint-timeseries': site('Reader'),
  'GET /api/metrics/failed-insights': site('Reader'),
  'GET /api/heartbeat/overview': site('Reader'),
  'GET /api/health/services': site('Reader'),
  'GET /api/heartbeat/settings': site('Reader'),
  'GET /api/topology': site('Reader'),
  'PUT /api/heartbeat/settings': site('Owner'),
  'POST /api/operations/copy-endpoint-data': site('Owner'),
  'GET /api/users': site('Owner'),
  'POST /api/users': site('Owner'),
  'PUT /api/users/{userId}/site-role': site('Owner'),
  'PUT /api/users/{userId}/disabled': site('Owner'),
  'POST /api/users/{userId}/reset-password': site('Owner'),
  'DELETE /api/users/{userId}': site('Owner'),
  'GET /api/alert-subscriptions': 'signedIn',
  [`POST ${E}/alert-subscriptions`]: endpoint('Owner'),
  [`DELETE ${E}/alert-subscriptions/{subscriptionId}`]: endpoint('Owner'),
  [`POST ${E}/alert-subscriptions/{subscriptionId}/test`]: endpoint('Owner'),
  [`GET ${E}/alert-subscriptions/{subscriptionId}/deliveries`]: endpoint('Reader'),
};

/** Writes that are reads (no audit row) or whose rows are written per item (bulk: one per event acted on). */
const NOT_ONE_ROW_ON_SUCCESS = new Set([`POST ${E}/sessions/batch`, `POST ${E}/bulk`]);

const RANK = { None: 0, Reader: 1, Contributor: 2, Owner: 3 } as const;
function roleOf(principal: Principal, scope: 'site' | 'endpoint'): keyof typeof RANK {
  if (principal === 'CrmOwner' || principal === 'anonymous') return 'None';
  // Signed in through the OpenID Connect provider: its group maps to site Reader and Contributor on Erp.
  if (principal === 'OidcContributor') return scope === 'site' ? 'Reader' : 'Contributor';
  return principal;
}

export function expectedAccess(rule: Rule, principal: Principal): 'allowed' | 401 | 403 {
  if (rule === 'public') return 'allowed';
  if (principal === 'anonymous') return 401;
  if (rule === 'signedIn') return 'allowed';
  return RANK[roleOf(principal, rule.scope)] >= RANK[rule.role] ? 'allowed' : 403;
}

/** One event per action, so each succeeds once (the harness runs no Resolver: statuses stay put). */
const EVENT_OF: Record<string, string> = {
  [`DELETE ${EV}`]: PENDING_EVENT,
  [`POST ${EV}/skip`]: OTHER_FAILED_EVENT,
  [`POST ${EV}/handoff/complete`]: HANDOFF_EVENT,
  [`POST ${EV}/handoff/fail`]: HANDOFF_EVENT,
  [`POST ${EV}/reconcile`]: 'evt-deferred-2',
};

async function auditCount(h: Harness): Promise<number> {
  let total = 0;
  let token: string | null = null;
  do {
    const page = await h.stores.store.searchAudits({ filter: {}, continuationToken: token, maxItems: 1000 });
    total += page.audits.length;
    token = page.continuationToken;
  } while (token);
  return total;
}

export function describeAuthorizationMatrix(factory: StoreFactory): void {
  describe(`authorization matrix (${factory.name})`, () => {
    let h: Harness;
    let closeAll: (() => Promise<void>) | undefined;
    let clients: Record<Principal, ApiClient>;
    let targetUserId: string;
    let n = 0;
    beforeAll(async () => {
      const started = await startOidcHarness(factory);
      h = started.h;
      closeAll = started.close;
      const oidc = started.oidcClient;
      const crm = { email: 'crm-owner@example.test', password: 'Crm!Owner!Pass1' };
      const created = (await h.admin.post('/api/users', { ...crm, siteRole: 'None' })).body as Json;
      await h.admin.put(`/api/users/${created.id}/endpoint-roles/Crm`, { role: 'Owner' });
      const target = { email: 'target@example.test', password: 'Target!Pass!1' };
      targetUserId = ((await h.admin.post('/api/users', target)).body as Json).id as string;
      clients = {
        anonymous: h.newClient(),
        Reader: await h.signedIn(READER),
        Contributor: await h.signedIn(CONTRIBUTOR),
        Owner: h.admin,
        CrmOwner: await h.signedIn(crm),
        OidcContributor: oidc,
      };
    }, 60_000);
    afterAll(async () => {
      await closeAll?.();
    });

    const request = (operation: Operation) => {
      const params: Record<string, string> = {
        endpointId: ERP,
        eventId: EVENT_OF[operation.key] ?? FAILED_EVENT,
        sessionId: BLOCKED_SESSION,
        userId: targetUserId,
        tokenId: 'no-such-token',
        jobId: 'no-such-job',
        eventTypeId: 'CustomerChanged',
        input: ERP,
        deadLetterId: 'no-such-dead-letter',
        subscriptionId: 'no-such-subscription',
      };
      const overrides = {
        email: `matrix-${n++}@example.test`,
        password: 'Matrix!Passphrase-9x',
        newPassword: 'Matrix!Reset-Passphrase-7q',
        url: 'https://alerts.example.test/matrix-alerts',
        secret: 'matrix-shared-secret-16',
        eventJson: '{"customerId":"cust-1","name":"Matrix"}',
        expectedLastMessageId: 'evt-deferred-2-m1',
        eventIds: ['no-such-event'],
        endpointIds: [ERP],
        // Matches nothing, so the job acts on no event and writes only its own audit row.
        failureSignature: 'matrix: no such failure',
        role: 'Reader',
      };
      const login = operation.key === 'POST /account/login' ? READER : {};
      const body = operation.bodySchema
        ? sampleOf(operation.bodySchema, '', { ...overrides, ...login })
        : undefined;
      // Required query parameters get a sample value, so that a refusal is about access, not about a missing value.
      const query = new URLSearchParams(
        operation.query
          .filter((q) => q.required)
          .map((q) => [q.name, String(sampleOf(q.schema, q.name, overrides))]),
      ).toString();
      return { url: urlOf(operation, params, query), body };
    };

    it('has a rule for every route of the OpenAPI document, and only for those', () => {
      const keys = operationsOf(h.webApp.openApi).map((o) => o.key);
      expect(
        keys.filter((k) => !(k in RULES)),
        'routes without a rule',
      ).toEqual([]);
      expect(
        Object.keys(RULES).filter((k) => !keys.includes(k)),
        'rules without a route',
      ).toEqual([]);
    });

    it('answers every route × principal as the rules say; each success and each denial writes one audit row', async () => {
      // Signing out ends the session the other calls use: it goes last.
      const operations = operationsOf(h.webApp.openApi).sort(
        (a, b) => Number(a.key === 'POST /account/logout') - Number(b.key === 'POST /account/logout'),
      );
      const problems: string[] = [];
      for (const operation of operations) {
        for (const principal of PRINCIPALS) {
          const expected = expectedAccess(RULES[operation.key] ?? 'public', principal);
          const { url, body } = request(operation);
          const before = await auditCount(h);
          // Signing in replaces the client's cookies: it runs on a throwaway client.
          const client = operation.key === 'POST /account/login' ? h.newClient() : clients[principal];
          const result = operation.streaming
            ? { status: await client.streamStatus(url), body: '(stream)' }
            : await client.request(operation.method, url, body);
          const rows = (await auditCount(h)) - before;
          const label = `${operation.key} as ${principal}: ${result.status} ${JSON.stringify(result.body).slice(0, 160)}`;
          if (result.status >= 500) problems.push(`${label} (5xx)`);
          else if (expected === 'allowed' && (result.status === 401 || result.status === 403))
            problems.push(`${label} (expected allowed)`);
          else if (expected !== 'allowed' && result.status !== expected)
            problems.push(`${label} (expected ${expected})`);
          else if (result.status === 403 && rows !== 1)
            problems.push(`${label} (denial wrote ${rows} audit rows)`);
          else if (
            operation.method !== 'GET' &&
            operation.authenticated &&
            result.status < 300 &&
            !NOT_ONE_ROW_ON_SUCCESS.has(operation.key) &&
            rows !== 1
          )
            problems.push(`${label} (success wrote ${rows} audit rows)`);
        }
      }
      expect(problems).toEqual([]);
    }, 120_000);
  });
}

const runPg = await shouldRunPostgresSuite('authorization matrix on PostgreSQL');
describeAuthorizationMatrix(memoryStores);
describeAuthorizationMatrix(sqliteStores);
describe.runIf(runPg)('on PostgreSQL', () => describeAuthorizationMatrix(postgresStores));
