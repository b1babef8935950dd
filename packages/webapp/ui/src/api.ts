import {
  createNimbusClient,
  type Middleware,
  NimbusApiError,
  type paths,
  type RequestBody,
  type ResponseBody,
  unwrap,
} from '@nimbus/client';
import { loginUrl } from './return-path.js';

/**
 * The UI's REST client is `@nimbus/client` (generated from the server's OpenAPI document by openapi-typescript,
 * called with openapi-fetch): paths, parameters, bodies and answers are typed, so a route change the UI does
 * not follow fails the UI's typecheck. The browser sends the session cookie; the client adds the CSRF header.
 */
export { NimbusApiError as ApiError };

const signInAgain: Middleware = {
  onResponse({ request, response }) {
    // A session that ended (signed out elsewhere, expired) sends the operator to sign in, then back here.
    if (response.status === 401 && !new URL(request.url).pathname.startsWith('/account/'))
      window.location.assign(loginUrl(`${window.location.pathname}${window.location.search}`));
    return response;
  },
};

export const api = createNimbusClient({ baseUrl: window.location.origin, auth: { type: 'browser' } });
api.use(signInAgain);

/** The answer's data, or an `ApiError` with the server's message and field issues. */
export const ok = unwrap;

type Method = 'get' | 'post' | 'put' | 'delete';

/** The JSON a route answers with on success: `Answer<'/api/endpoints', 'get'>`. */
export type Answer<Path extends keyof paths, M extends Method = 'get'> = ResponseBody<Path, M>;

/** The JSON body a route takes: `Body<'/api/account/tokens'>`. */
export type Body<Path extends keyof paths, M extends Method = 'post'> = RequestBody<Path, M>;

export type Me = Answer<'/api/auth/me'>;
export type EndpointSummary = Answer<'/api/endpoints'>[number];
export type EventRow = Answer<'/api/endpoints/{endpointId}/events'>['events'][number];
export type EventDetails = Answer<'/api/endpoints/{endpointId}/events/{eventId}'>;
export type HistoryMessage = Answer<'/api/endpoints/{endpointId}/events/{eventId}/history'>[number];
export type Audit = Answer<'/api/endpoints/{endpointId}/events/{eventId}/audits'>[number];

/** One Server-Sent Event of `/api/live` (the stream's documented data). */
export type LiveUpdate = paths['/api/live']['get']['responses'][200]['content']['text/event-stream'];
