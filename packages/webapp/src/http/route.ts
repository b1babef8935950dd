import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Principal } from '../auth/principal.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Who may call a route before the handler's own role checks run. */
export type RouteAccess = 'anonymous' | 'authenticated';

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteContext<P, Q, B> {
  readonly params: Out<P>;
  readonly query: Out<Q>;
  readonly body: Out<B>;
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  /** Present for `authenticated` routes; `null` only on anonymous ones. */
  readonly principal: Principal | null;
}

/** One API operation: its zod schemas are both the validator and the OpenAPI description. */
export interface RouteSpec<
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  R extends z.ZodType | undefined = undefined,
> {
  readonly method: HttpMethod;
  /** Fastify path syntax: `/api/endpoints/:endpointId`. */
  readonly url: string;
  readonly tag: string;
  readonly summary: string;
  readonly access: RouteAccess;
  readonly params?: P;
  readonly query?: Q;
  readonly body?: B;
  /** The 200 response; omitted for 204 responses. */
  readonly response?: R;
  /** Status for a successful call (200 by default, 204 when there is no response schema). */
  readonly successStatus?: number;
  /**
   * Callable while the user must still choose a new password (change it, sign out); every other
   * authenticated route answers 403 `PasswordChangeRequired` until then.
   */
  readonly beforePasswordChange?: true;
  handler(context: RouteContext<P, Q, B>): Promise<R extends z.ZodType ? z.input<R> : undefined>;
}

// biome-ignore lint/suspicious/noExplicitAny: a registry holds routes of every schema combination
export type AnyRouteSpec = RouteSpec<any, any, any, any>;

/** Identity function that lets TypeScript infer the schema types of a route. */
export function defineRoute<
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  R extends z.ZodType | undefined = undefined,
>(spec: RouteSpec<P, Q, B, R>): RouteSpec<P, Q, B, R> {
  return spec;
}
