import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type AuditLog, countingAuditRows, type RequestAuditCount } from '../audit/audit-log.js';
import type { Authenticator } from '../auth/authenticator.js';
import type { Principal } from '../auth/principal.js';
import { HttpError, passwordChangeRequired, unauthorized } from './http-error.js';
import { auditRefusal } from './refusal-audit.js';
import type { AnyRouteSpec } from './route.js';
import { parsePart } from './validation.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function requireJson(request: FastifyRequest): void {
  const type = request.headers['content-type'] ?? '';
  if (!type.toLowerCase().startsWith('application/json')) {
    throw new HttpError(415, 'UnsupportedMediaType', 'Send the request body as application/json.');
  }
}

/** Registers one route: authentication, CSRF, zod validation of params/query/body, then the handler. */
export function registerRoute(
  app: FastifyInstance,
  authenticator: Authenticator,
  auditLog: AuditLog,
  spec: AnyRouteSpec,
): void {
  app.route({
    method: spec.method,
    url: spec.url,
    handler: async (request, reply) => {
      const count: RequestAuditCount = { rows: 0 };
      try {
        return await countingAuditRows(count, () => handle(request, reply));
      } catch (error) {
        await auditRefusal(auditLog, request, spec.url, count, error);
        throw error;
      }
    },
  });

  async function handle(request: FastifyRequest, reply: FastifyReply) {
    const principal = request.principal;
    if (spec.access === 'authenticated') {
      if (!principal) throw unauthorized();
      if (UNSAFE_METHODS.has(request.method)) {
        const problem = authenticator.csrfProblem(request, principal);
        if (problem) throw new HttpError(403, 'CsrfRejected', `CSRF check failed: ${problem}.`);
      }
      if (principal.user.mustChangePassword && !spec.beforePasswordChange) throw passwordChangeRequired();
    } else if (UNSAFE_METHODS.has(request.method) && spec.body) {
      // Anonymous writes (sign-in) only take JSON: a cross-site form cannot send it without a preflight.
      requireJson(request);
    }
    const params = spec.params ? parsePart('params', spec.params, request.params) : undefined;
    const query = spec.query ? parsePart('query', spec.query, request.query) : undefined;
    const body = spec.body ? parsePart('body', spec.body, request.body ?? {}) : undefined;
    const result = await spec.handler({ params, query, body, request, reply, principal });
    if (!spec.response) {
      return reply.code(spec.successStatus ?? 204).send();
    }
    return reply.code(spec.successStatus ?? 200).send(result);
  }
}
