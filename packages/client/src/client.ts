import createClient, { type Client } from 'openapi-fetch';
import { authMiddleware, CSRF_COOKIE, type NimbusAuth, type SessionAuth } from './auth.js';
import { apiErrorOf, operationMiddleware } from './errors.js';
import type { paths } from './generated/openapi.js';

/** The typed client: `client.GET('/api/endpoints')`, `client.POST('/api/…/skip', { params, body })`. */
export type NimbusClient = Client<paths>;

export interface NimbusClientOptions {
  /** The WebApp's URL, e.g. `https://nimbus.example.com` (a trailing slash is ignored). */
  readonly baseUrl: string;
  /** How to authenticate; without it only the public operations answer (probes, sign-in, the document). */
  readonly auth?: NimbusAuth;
  /** Another fetch (a proxy agent, a test double at a boundary); default `globalThis.fetch`. */
  readonly fetch?: (request: Request) => Promise<Response>;
  /** Headers sent with every request (e.g. `x-request-id`). */
  readonly headers?: Record<string, string>;
}

/** A client of the WebApp REST API whose paths, parameters, bodies and answers are typed from its OpenAPI document. */
export function createNimbusClient(options: NimbusClientOptions): NimbusClient {
  const client = createClient<paths>({
    baseUrl: options.baseUrl,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.auth?.type === 'browser' ? { credentials: 'same-origin' } : {}),
  });
  client.use(operationMiddleware);
  if (options.auth) client.use(authMiddleware(options.auth));
  return client;
}

export interface SignInOptions {
  readonly baseUrl: string;
  readonly email: string;
  readonly password: string;
  readonly fetch?: (request: Request) => Promise<Response>;
}

/**
 * Signs in with e-mail and password (`POST /account/login`) and returns the session to give `createNimbusClient`
 * as `auth`, for programs outside a browser. Throws `NimbusApiError` when the WebApp refuses the sign-in.
 */
export async function signIn(options: SignInOptions): Promise<SessionAuth> {
  const client = createNimbusClient({
    baseUrl: options.baseUrl,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const { error, response } = await client.POST('/account/login', {
    body: { email: options.email, password: options.password },
  });
  if (!response.ok) throw apiErrorOf(response, error);
  const cookies = response.headers.getSetCookie().map((cookie) => cookie.split(';')[0] ?? '');
  const csrf = cookies.find((cookie) => cookie.startsWith(`${CSRF_COOKIE}=`));
  if (!csrf)
    throw new Error(`The WebApp signed in but set no ${CSRF_COOKIE} cookie; is this a NimBus WebApp?`);
  return {
    type: 'session',
    cookie: cookies.filter((cookie) => cookie.length > 0).join('; '),
    csrfToken: decodeURIComponent(csrf.slice(CSRF_COOKIE.length + 1)),
  };
}
