import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface TestAccount {
  readonly sub: string;
  readonly email: string;
  readonly name: string;
  groups: string[];
}

export const OIDC_CLIENT = { id: 'nimbus-webapp', secret: 'a-client-secret-of-the-oidc-test' };

/**
 * A real OpenID Connect provider (the `oidc-provider` package) on loopback, with its development sign-in
 * pages (any password; the login name picks the account). Started before the WebApp (its issuer url is
 * part of the WebApp's options); `configure` registers the WebApp's redirect urls once it listens.
 */
export async function startOidcProvider(accounts: Record<string, TestAccount>) {
  let handler: http.RequestListener = (_request, response) =>
    void response.writeHead(503).end('not configured');
  const server = http.createServer((request, response) => handler(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    /** `jwks`: the client authenticates with a signed assertion (private_key_jwt) instead of the secret. */
    configure(webAppUrl: string, options: { idTokenTtlS?: number; jwks?: { keys: object[] } } = {}) {
      const clientAuth = options.jwks
        ? { token_endpoint_auth_method: 'private_key_jwt' as const, jwks: options.jwks as never }
        : { client_secret: OIDC_CLIENT.secret };
      const provider = new Provider(issuer, {
        clients: [
          {
            client_id: OIDC_CLIENT.id,
            ...clientAuth,
            redirect_uris: [`${webAppUrl}/account/oidc/callback`],
            post_logout_redirect_uris: [`${webAppUrl}/account/login`],
            grant_types: ['authorization_code'],
            response_types: ['code'],
          },
        ],
        async findAccount(_ctx, id) {
          const account = accounts[id];
          if (!account) return undefined;
          return {
            accountId: id,
            claims: async () => ({ ...account, preferred_username: account.email }),
          };
        },
        claims: { openid: ['sub'], email: ['email'], profile: ['name', 'preferred_username', 'groups'] },
        // The ID token carries the scopes' claims (Entra ID puts groups and roles there too).
        conformIdTokenClaims: false,
        features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true } },
        pkce: { required: () => true },
        cookies: { keys: ['oidc-test-cookie-key'] },
        ttl: { IdToken: options.idTokenTtlS ?? 3600 },
      });
      handler = provider.callback();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
