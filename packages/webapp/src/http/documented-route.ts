import type { z } from 'zod';
import type { HttpMethod } from './route.js';

/** How a documented route is reached: the route registry's rules, or one of the shared keys. */
export type DocumentedSecurity = 'anonymous' | 'session' | 'webhookKey' | 'metricsToken';

/**
 * A route registered on Fastify directly (a stream, plain text, HTML, a probe) rather than through
 * `registerRoute`: described here so the OpenAPI document still lists every route the server answers.
 */
export interface DocumentedRoute {
  readonly method: HttpMethod;
  /** Fastify path syntax, as registered. */
  readonly url: string;
  readonly tag: string;
  readonly summary: string;
  readonly security: DocumentedSecurity;
  readonly params?: z.ZodType;
  readonly success: {
    readonly status: number;
    readonly description: string;
    /** Omitted for answers without a body (204). */
    readonly contentType?: string;
    readonly schema?: z.ZodType;
  };
  /** Other answers worth naming (a probe's 503). */
  readonly otherResponses?: Readonly<Record<string, string>>;
}
