import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ClientSecretCredential } from '@azure/identity';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createBearerTokenFetch, TokenRequestError } from '../src/index.js';
import { startFakeIdentityProvider } from './support/fake-identity-provider.js';

/*
 * The real ClientSecretCredential of @azure/identity against a loopback identity provider, and an API
 * that refuses tokens. The credential keeps the token it issued in its own (MSAL) cache, so merely
 * forgetting our copy after a 401 would send the refused token again.
 */

const TENANT = '11111111-2222-3333-4444-555555555555';
const SECRET = 'not-a-real-secret';
const SCOPE = 'https://contoso.crm.dynamics.com/.default';
const CLAIMS = '{"access_token":{"nbf":{"essential":true,"value":"1764633600"}}}';

const idp = await startFakeIdentityProvider({ clientSecret: SECRET });
/** Tokens the API refuses, and for each whether to send a claims challenge. */
const refused = new Map<string, { challenge: boolean }>();
const seen: string[] = [];
const api = http.createServer((req, res) => {
  const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
  seen.push(token);
  const refusal = refused.get(token);
  if (refusal === undefined) return res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  const challenge = refusal.challenge
    ? `Bearer realm="", error="insufficient_claims", claims="${Buffer.from(CLAIMS).toString('base64')}"`
    : 'Bearer realm="", error="invalid_token"';
  res.writeHead(401, { 'www-authenticate': challenge }).end();
});
api.listen(0, '127.0.0.1');
await once(api, 'listening');
const url = `http://127.0.0.1:${(api.address() as AddressInfo).port}/api/data/v9.2/accounts`;

afterAll(async () => {
  await idp.close();
  api.close();
});
afterEach(() => {
  idp.behaviour.failing = false;
  idp.behaviour.expiresInSeconds = 3600;
});

let clients = 0;
/** A credential for a client id of its own (so each case starts with an empty MSAL cache). */
function credentialFactory() {
  const clientId = `adapter-${++clients}`;
  const make = () =>
    new ClientSecretCredential(TENANT, clientId, SECRET, {
      authorityHost: idp.authorityHost,
      disableInstanceDiscovery: true,
      tlsOptions: { ca: idp.ca },
    });
  return { clientId, make };
}
const grantsOf = (clientId: string) => idp.grants.filter((g) => g.clientId === clientId);

describe('a 401 with the real ClientSecretCredential', () => {
  it('without a challenge: the next request carries a token from a fresh token request', async () => {
    const { clientId, make } = credentialFactory();
    const fetch = createBearerTokenFetch(make, SCOPE);
    expect((await fetch(url)).status).toBe(200);
    const first = seen.at(-1) as string;
    refused.set(first, { challenge: false });
    expect((await fetch(url)).status).toBe(401);
    const before = seen.length;
    expect((await fetch(url)).status).toBe(200);
    expect(seen.slice(before)).not.toContain(first);
    expect(grantsOf(clientId)).toHaveLength(2);
  });

  it('a credential given as an instance that answers the refused token from its cache: it is not sent again', async () => {
    const { clientId, make } = credentialFactory();
    const fetch = createBearerTokenFetch(make(), SCOPE);
    expect((await fetch(url)).status).toBe(200);
    const first = seen.at(-1) as string;
    refused.set(first, { challenge: false });
    expect((await fetch(url)).status).toBe(401);
    const before = seen.length;
    const error = await fetch(url).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenRequestError);
    expect((error as Error).message).toMatch(/refused .*function that makes the credential/);
    expect(seen.length).toBe(before);
    expect(grantsOf(clientId)).toHaveLength(1);
  });

  it('with a claims challenge: the claims go to the credential, which asks the identity provider again', async () => {
    const { clientId, make } = credentialFactory();
    const fetch = createBearerTokenFetch(make(), SCOPE);
    expect((await fetch(url)).status).toBe(200);
    const first = seen.at(-1) as string;
    refused.set(first, { challenge: true });
    expect((await fetch(url)).status).toBe(401);
    expect((await fetch(url)).status).toBe(200);
    expect(seen.at(-1)).not.toBe(first);
    const grants = grantsOf(clientId);
    expect(grants).toHaveLength(2);
    expect(grants[0]?.claims).toBeNull();
    // MSAL (from @azure/identity 4.14) merges its own optional id_token claims into the request: the
    // challenge's access_token claims must be there as sent.
    expect(JSON.parse(grants[1]?.claims ?? 'null')).toMatchObject(JSON.parse(CLAIMS));
  });

  it('a refresh that fails while the token is still valid keeps the valid token', async () => {
    const { clientId, make } = credentialFactory();
    // 302 s: due for refresh (ours and MSAL's, both 5 minutes ahead) after 2 s, valid for 5 minutes more.
    idp.behaviour.expiresInSeconds = 302;
    const fetch = createBearerTokenFetch(make(), SCOPE);
    expect((await fetch(url)).status).toBe(200);
    const first = seen.at(-1);
    idp.behaviour.failing = true;
    const deadline = Date.now() + 30_000;
    while (idp.failedRequests.count === 0 && Date.now() < deadline) {
      expect((await fetch(url)).status).toBe(200);
      expect(seen.at(-1)).toBe(first);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(idp.failedRequests.count).toBeGreaterThan(0);
    expect((await fetch(url)).status).toBe(200);
    expect(seen.at(-1)).toBe(first);
    expect(grantsOf(clientId)).toHaveLength(1);
  }, 60_000);
});
