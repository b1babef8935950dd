import { MessageAuditType } from '@nimbus/message-store';
import type { FastifyRequest } from 'fastify';
import type { AuditLog, RequestAuditCount } from '../audit/audit-log.js';
import { HttpError } from './http-error.js';
import { redactRequestUrl } from './redact.js';

/** Answers that refuse the caller: forbidden, not found (also what a hidden resource answers), rate-limited. */
const REFUSALS = new Set([403, 404, 429]);

/**
 * Every refusal of an API request leaves one audit row: when the route wrote none itself (a role check
 * writes its own), an `AccessDenied` row naming the answer. Not found counts, because a resource the caller
 * may not see answers 404 too; rate limits count, because they are what guessing runs into.
 */
export async function auditRefusal(
  auditLog: AuditLog,
  request: FastifyRequest,
  route: string,
  count: RequestAuditCount,
  error: unknown,
): Promise<void> {
  if (!(error instanceof HttpError) || !REFUSALS.has(error.status) || count.rows > 0) return;
  await auditLog.write({
    type: MessageAuditType.AccessDenied,
    principal: request.principal,
    accessDenied: true,
    data: {
      status: error.status,
      error: error.code,
      message: error.message,
      method: request.method,
      route,
      url: redactRequestUrl(request.url),
      address: request.ip,
    },
  });
}
