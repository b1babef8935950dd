import { once } from 'node:events';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { loopbackCertificate } from './loopback-certificate.js';

export interface TokenGrant {
  readonly tenantId: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly scope: string;
  /** The `claims` form field (a claims challenge passed on by the client), or null. */
  readonly claims: string | null;
}

/** What the token endpoint does, changeable while it runs. */
export interface IdentityProviderBehaviour {
  /** Answer every token request with 503 (an outage). */
  failing: boolean;
  expiresInSeconds: number;
}

export interface FakeIdentityProvider {
  /** The authority host to give a credential (`https://127.0.0.1:PORT`). */
  readonly authorityHost: string;
  /** The CA that signed the server certificate (PEM), for the credential's `tlsOptions.ca`. */
  readonly ca: string;
  /** Every client-credentials grant the token endpoint accepted. */
  readonly grants: TokenGrant[];
  /** Token requests answered with an error because `behaviour.failing` was set. */
  readonly failedRequests: { count: number };
  readonly behaviour: IdentityProviderBehaviour;
  close(): Promise<void>;
}

/**
 * A loopback Microsoft Entra look-alike for the client-credentials flow: OpenID metadata per tenant
 * and a v2.0 token endpoint that checks the client secret, over https with a certificate made now.
 */
export async function startFakeIdentityProvider(options: {
  readonly clientSecret: string;
  readonly expiresInSeconds?: number;
}): Promise<FakeIdentityProvider> {
  const { cert, key } = await loopbackCertificate();
  const grants: TokenGrant[] = [];
  const failedRequests = { count: 0 };
  const behaviour: IdentityProviderBehaviour = {
    failing: false,
    expiresInSeconds: options.expiresInSeconds ?? 3600,
  };
  let base = '';
  const server = https.createServer({ cert, key }, async (req, res) => {
    const url = new URL(req.url ?? '/', base);
    const [tenantId = '', ...rest] = url.pathname.slice(1).split('/');
    const route = rest.join('/');
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'GET' && route === 'v2.0/.well-known/openid-configuration') {
      return json(200, {
        issuer: `${base}/${tenantId}/v2.0`,
        authorization_endpoint: `${base}/${tenantId}/oauth2/v2.0/authorize`,
        token_endpoint: `${base}/${tenantId}/oauth2/v2.0/token`,
        end_session_endpoint: `${base}/${tenantId}/oauth2/v2.0/logout`,
        jwks_uri: `${base}/${tenantId}/discovery/v2.0/keys`,
        response_types_supported: ['code', 'id_token', 'token'],
      });
    }
    if (req.method === 'POST' && route === 'oauth2/v2.0/token') {
      let body = '';
      for await (const chunk of req) body += chunk;
      const form = new URLSearchParams(body);
      if (behaviour.failing) {
        failedRequests.count += 1;
        return json(503, { error: 'temporarily_unavailable', error_description: 'AADSTS90033: try again.' });
      }
      if (
        form.get('grant_type') !== 'client_credentials' ||
        form.get('client_secret') !== options.clientSecret
      ) {
        return json(401, {
          error: 'invalid_client',
          error_description: 'AADSTS7000215: Invalid client secret provided.',
        });
      }
      const grant = {
        tenantId,
        clientId: form.get('client_id') ?? '',
        clientSecret: form.get('client_secret') ?? '',
        scope: form.get('scope') ?? '',
        claims: form.get('claims'),
      };
      grants.push(grant);
      return json(200, {
        token_type: 'Bearer',
        expires_in: behaviour.expiresInSeconds,
        ext_expires_in: behaviour.expiresInSeconds,
        access_token: `token-${grants.length}-for-${grant.clientId}`,
      });
    }
    json(404, { error: 'not_found', error_description: `${req.method} ${url.pathname}` });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    authorityHost: base,
    ca: cert,
    grants,
    failedRequests,
    behaviour,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
