import { MessageAuditType } from '@nimbus/message-store';
import type { AuditLog } from '../audit/audit-log.js';
import { forbidden } from '../http/http-error.js';
import type { Role } from '../identity/roles.js';
import type { Principal } from './principal.js';

export interface DeniedAudit {
  readonly type: MessageAuditType;
  readonly eventId?: string | null;
  readonly eventTypeId?: string | null;
  readonly data?: unknown;
}

/**
 * Throws 403 unless the caller holds `required` on the endpoint (or site-wide when no endpoint is given).
 * Every refusal first writes one access-denied row: the action's own type when `audit` is given, else
 * `AccessDenied` (a refused read).
 */
export async function authorize(
  auditLog: AuditLog,
  principal: Principal,
  required: Role,
  endpointId: string | null,
  audit?: DeniedAudit,
): Promise<void> {
  if (principal.has(required, endpointId)) return;
  await auditLog.write({
    type: MessageAuditType.AccessDenied,
    data: { required, scope: endpointId ?? 'site' },
    ...audit,
    principal,
    endpointId,
    accessDenied: true,
  });
  const scope = endpointId ? `endpoint '${endpointId}'` : 'the site';
  throw forbidden(
    `This action needs the ${required} role on ${scope}; you have ${principal.roleOn(endpointId)}.`,
  );
}
