import { NimBusError, NimBusErrorCode } from '@nimbus/core';
import { importPKCS8 } from 'jose';
import * as client from 'openid-client';
import type { OidcOptions } from './oidc-options.js';

function isLoopback(url: URL): boolean {
  return ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

/** The provider's discovered configuration and this client's authentication (secret or certificate). */
export async function discoverProvider(options: OidcOptions): Promise<client.Configuration> {
  const issuer = new URL(options.issuer);
  const insecure = issuer.protocol === 'http:';
  if (insecure && !(options.allowInsecureLoopbackIssuer && isLoopback(issuer)))
    throw new NimBusError(
      NimBusErrorCode.InvalidOption,
      `The OIDC issuer must be https (got ${issuer.origin}).`,
    );
  let auth: client.ClientAuth | undefined;
  if (options.clientCertificate) {
    const key = await importPKCS8(options.clientCertificate.privateKeyPem, 'RS256');
    const { thumbprint } = options.clientCertificate;
    // Entra ID finds the certificate by the assertion's `x5t` header (the SHA-1 thumbprint, base64url).
    auth = client.PrivateKeyJwt(key, {
      [client.modifyAssertion]: (header) => {
        header.x5t = thumbprint;
      },
    });
  }
  return client.discovery(
    issuer,
    options.clientId,
    options.clientSecret,
    auth,
    insecure ? { execute: [client.allowInsecureRequests] } : undefined,
  );
}

export interface AuthorizationStart {
  readonly url: URL;
  readonly verifier: string;
  readonly state: string;
  readonly nonce: string;
}

/** The authorization-code request with PKCE (S256), state and nonce. */
export async function startAuthorization(
  config: client.Configuration,
  redirectUri: string,
  scopes: readonly string[],
): Promise<AuthorizationStart> {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: scopes.join(' '),
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  return { url, verifier, state, nonce };
}

/** Exchanges the code (checking state, nonce, PKCE and the ID token) and returns the user's claims. */
export async function finishAuthorization(
  config: client.Configuration,
  callbackUrl: URL,
  start: Omit<AuthorizationStart, 'url'>,
): Promise<Record<string, unknown>> {
  const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
    pkceCodeVerifier: start.verifier,
    expectedState: start.state,
    expectedNonce: start.nonce,
    idTokenExpected: true,
  });
  const claims = tokens.claims()!;
  // Providers differ in what the ID token carries; userinfo (where there is one) adds the rest.
  if (!config.serverMetadata().userinfo_endpoint) return { ...claims };
  const info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
  return { ...info, ...claims };
}

/** The provider's end-session url (RP-initiated logout), or `null` when it has none. */
export function endSessionUrl(config: client.Configuration, postLogoutRedirectUri: string): URL | null {
  if (!config.serverMetadata().end_session_endpoint) return null;
  return client.buildEndSessionUrl(config, { post_logout_redirect_uri: postLogoutRedirectUri });
}
