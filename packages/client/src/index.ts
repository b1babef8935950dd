export type { Middleware } from 'openapi-fetch';
export {
  type BrowserSessionAuth,
  CSRF_COOKIE,
  CSRF_HEADER,
  csrfTokenFromDocumentCookie,
  type NimbusAuth,
  SESSION_COOKIE,
  type SessionAuth,
  type TokenAuth,
} from './auth.js';
export {
  createNimbusClient,
  type NimbusClient,
  type NimbusClientOptions,
  type SignInOptions,
  signIn,
} from './client.js';
export { apiErrorOf, NimbusApiError, type NimbusApiIssue, unwrap } from './errors.js';
export type { components, operations, paths } from './generated/openapi.js';
export type { NimbusPath, QueryOf, RequestBody, ResponseBody } from './types.js';
