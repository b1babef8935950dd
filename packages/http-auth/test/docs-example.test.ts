import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, expect, it } from 'vitest';
import { startFakeIdentityProvider } from './support/fake-identity-provider.js';

const idp = await startFakeIdentityProvider({ clientSecret: 'example-secret' });
const seen: (string | undefined)[] = [];
const api = http.createServer((req, res) => {
  seen.push(req.headers.authorization);
  res.writeHead(200, { 'content-type': 'application/json' }).end('{"value":[{"name":"Contoso"}]}');
});
api.listen(0, '127.0.0.1');
await once(api, 'listening');
afterAll(async () => {
  await idp.close();
  api.close();
});

const env: Record<string, string> = {
  AZURE_TENANT_ID: '00000000-0000-0000-0000-000000000001',
  AZURE_CLIENT_ID: 'crm-adapter',
  AZURE_CLIENT_SECRET: 'example-secret',
};
const orgUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
const credentialOptions = {
  authorityHost: idp.authorityHost,
  disableInstanceDiscovery: true,
  tlsOptions: { ca: idp.ca },
};

async function runExample(): Promise<unknown> {
  // --- example start ---
  const { ClientSecretCredential } = await import('@azure/identity');
  const { createBearerTokenFetch, dataverseScope } = await import('@nimbus/http-auth');

  const credential = new ClientSecretCredential(
    env.AZURE_TENANT_ID!,
    env.AZURE_CLIENT_ID!,
    env.AZURE_CLIENT_SECRET!,
    credentialOptions, // production: {} (login.microsoftonline.com)
  );
  // One cached token for every handler that uses this fetch.
  const dataverseFetch = createBearerTokenFetch(
    credential,
    dataverseScope('https://contoso.crm.dynamics.com'),
  );

  const response = await dataverseFetch(`${orgUrl}/api/data/v9.2/accounts?$select=name&$top=1`, {
    headers: { accept: 'application/json' },
    signal: AbortSignal.timeout(15_000),
  });
  if (!response.ok) throw new Error(`Dataverse answered ${response.status}`);
  const accounts = await response.json();
  // --- example end ---
  return accounts;
}

it('docs/entra-tokens.md example runs against a loopback identity provider', async () => {
  expect(await runExample()).toEqual({ value: [{ name: 'Contoso' }] });
  expect(idp.grants.map((g) => g.scope.split(' '))).toEqual([
    expect.arrayContaining(['https://contoso.crm.dynamics.com/.default']),
  ]);
  expect(seen).toEqual(['Bearer token-1-for-crm-adapter']);
});

it('the docs page shows exactly the example this test runs', () => {
  const source = readFileSync(new URL(import.meta.url), 'utf8');
  const example = source
    .split('// --- example start ---\n')[1]!
    .split('  // --- example end ---')[0]!
    .split('\n')
    .map((line) => line.replace(/^ {2}/, ''))
    .join('\n')
    .trim();
  const page = readFileSync(new URL('../../../docs/entra-tokens.md', import.meta.url), 'utf8');
  expect(page).toContain(example);
});
