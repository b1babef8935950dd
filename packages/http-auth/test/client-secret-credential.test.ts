import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ClientSecretCredential } from '@azure/identity';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessTokenCache, createBearerTokenFetch, TokenRequestError } from '../src/index.js';
import { type FakeIdentityProvider, startFakeIdentityProvider } from './support/fake-identity-provider.js';

const TENANT = '11111111-2222-3333-4444-555555555555';
const CLIENT = 'nimbus-adapter';
const SECRET = 'not-a-real-secret';
const SCOPE = 'https://contoso.crm.dynamics.com/.default';

describe('with the real ClientSecretCredential against a loopback identity provider', () => {
  let idp: FakeIdentityProvider;
  let api: http.Server;
  let apiUrl: string;
  const seenAuthorization: (string | undefined)[] = [];

  beforeAll(async () => {
    idp = await startFakeIdentityProvider({ clientSecret: SECRET });
    api = http.createServer((req, res) => {
      seenAuthorization.push(req.headers.authorization);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"value":[]}');
    });
    api.listen(0, '127.0.0.1');
    await once(api, 'listening');
    apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await idp?.close();
    api?.close();
  });

  const credential = (secret: string) =>
    new ClientSecretCredential(TENANT, CLIENT, secret, {
      authorityHost: idp.authorityHost,
      disableInstanceDiscovery: true,
      tlsOptions: { ca: idp.ca },
    });

  it('one token request serves concurrent calls, and every call carries it', async () => {
    const fetch = createBearerTokenFetch(credential(SECRET), SCOPE);
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => fetch(`${apiUrl}/api/data/v9.2/accounts`)),
    );
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(idp.grants).toHaveLength(1);
    expect(idp.grants[0]).toMatchObject({ tenantId: TENANT, clientId: CLIENT });
    expect(idp.grants[0]?.scope.split(' ')).toContain(SCOPE);
    expect(new Set(seenAuthorization)).toEqual(new Set([`Bearer token-1-for-${CLIENT}`]));
  });

  it('a rejected secret surfaces as a TokenRequestError naming the scope', async () => {
    const cache = new AccessTokenCache(credential('wrong-secret'), SCOPE);
    const error = await cache.getToken().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenRequestError);
    expect((error as Error).message).toContain(SCOPE);
  });
});
