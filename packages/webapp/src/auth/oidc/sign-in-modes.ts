import { z } from 'zod';
import { type AnyRouteSpec, defineRoute } from '../../http/route.js';
import type { OidcOptions } from './oidc-options.js';
import { OIDC_LOGIN_PATH, OIDC_SIGNED_OUT_PATH } from './oidc-routes.js';

const SignInModes = z.object({
  localAccounts: z.boolean().describe('whether e-mail and password sign-in is on'),
  oidc: z
    .object({
      label: z.string(),
      loginUrl: z.string().describe('navigate here (with ?returnUrl=/path) to sign in with the provider'),
      signedOutUrl: z
        .string()
        .describe('navigate here after POST /account/logout to end the provider session'),
    })
    .nullable(),
});

/** What the sign-in page offers: local accounts, an OpenID Connect provider, or both. */
export function signInModesRoute(localAccounts: boolean, oidc: OidcOptions | undefined): AnyRouteSpec {
  return defineRoute({
    method: 'GET',
    url: '/api/auth/sign-in-modes',
    tag: 'Account',
    summary: 'How to sign in here: local accounts, an OpenID Connect provider (Entra ID…), or both',
    access: 'anonymous',
    response: SignInModes,
    handler: async () => ({
      localAccounts,
      oidc: oidc
        ? {
            label: oidc.label ?? 'Sign in with single sign-on',
            loginUrl: OIDC_LOGIN_PATH,
            signedOutUrl: OIDC_SIGNED_OUT_PATH,
          }
        : null,
    }),
  });
}
