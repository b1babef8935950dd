import { createHash, generateKeyPairSync } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './support/harness.js';
import { OIDC_CLIENT, startOidcProvider } from './support/oidc-provider.js';
import { signInWithOidc } from './support/oidc-sign-in.js';
import { memoryStores } from './support/store-factories.js';

/** An RSA key as the WebApp gets it (PKCS#8 PEM) and as the provider knows the client (a public JWK). */
function clientKey() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  return {
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    // Entra ID looks the certificate up by this header; oidc-provider checks the signature against the JWKS.
    thumbprint: createHash('sha1').update(spki).digest('base64url'),
    jwk: { ...publicKey.export({ format: 'jwk' }), use: 'sig', alg: 'RS256' },
  };
}

/** Client authentication with a certificate's key (private_key_jwt), against a real provider on loopback. */
describe('OIDC client authentication with a private key (private_key_jwt)', () => {
  const opened: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const item of opened.splice(0).reverse()) await item.close();
  });

  async function start(registered: ReturnType<typeof clientKey>, used: ReturnType<typeof clientKey>) {
    const provider = await startOidcProvider({
      carol: { sub: 'carol', email: 'carol@example.test', name: 'Carol', groups: ['readers'] },
    });
    opened.push(provider);
    const h: Harness = await startHarness(memoryStores, {
      webApp: {
        oidc: {
          issuer: provider.issuer,
          clientId: OIDC_CLIENT.id,
          clientCertificate: { privateKeyPem: used.privateKeyPem, thumbprint: used.thumbprint },
          roleMapping: { claims: ['groups'], site: { readers: 'Reader' }, endpoints: {} },
          allowInsecureLoopbackIssuer: true,
        },
      },
    });
    opened.push(h);
    provider.configure(h.url, { jwks: { keys: [registered.jwk] } });
    return h;
  }

  it('signs in when the assertion is signed with the registered key', async () => {
    const key = clientKey();
    const h = await start(key, key);
    const carol = await signInWithOidc(h.url, 'carol');
    expect((await carol.get('/api/auth/me')).body).toMatchObject({
      isAuthenticated: true,
      signInMethod: 'oidc',
      siteRole: 'Reader',
    });
  }, 60_000);

  it('is refused by the provider when the WebApp signs with another key (the code is not exchanged)', async () => {
    const h = await start(clientKey(), clientKey());
    await expect(signInWithOidc(h.url, 'carol')).rejects.toThrow(/callback answered/);
  }, 60_000);
});
