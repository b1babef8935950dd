import type { DocumentedRoute } from '../../http/documented-route.js';

/** The OpenID Connect flow's routes (registered on Fastify directly: redirects and HTML pages). */
export const OIDC_ROUTE_DOCS: readonly DocumentedRoute[] = [
  {
    method: 'GET',
    url: '/account/oidc/login',
    tag: 'Account',
    summary:
      'Single sign-on: redirects to the provider (authorization code with PKCE, state and nonce); ?returnUrl= a path on this origin',
    security: 'anonymous',
    success: { status: 302, description: 'To the provider’s authorization endpoint' },
    otherResponses: { '503': 'The provider cannot be reached (an HTML page says so)' },
  },
  {
    method: 'GET',
    url: '/account/oidc/callback',
    tag: 'Account',
    summary:
      'Where the provider returns: exchanges the code, maps the claims to roles, starts the session (audited)',
    security: 'anonymous',
    success: { status: 302, description: 'Signed in: back to the return path, with the session cookies' },
    otherResponses: {
      '400': 'No sign-in in progress, or the provider answered an error (an HTML page says why)',
      '403': 'None of the user’s groups or app roles is mapped to a role (an HTML page says so)',
    },
  },
  {
    method: 'GET',
    url: '/account/oidc/signed-out',
    tag: 'Account',
    summary:
      'After POST /account/logout: ends the provider’s session too (RP-initiated logout), then the sign-in page',
    security: 'anonymous',
    success: { status: 302, description: 'To the provider’s end-session endpoint, or to /account/login' },
  },
];
