import { MessageAuditType } from '@nimbus/message-store';
import { z } from 'zod';
import type { ApiDeps } from '../app/api-deps.js';
import { authorize } from '../auth/authorize.js';
import { AuditDto, auditDto } from '../http/dto.js';
import { HttpError } from '../http/http-error.js';
import { type AnyRouteSpec, defineRoute } from '../http/route.js';
import { Role } from '../identity/roles.js';

const AUDIT_TYPES = Object.values(MessageAuditType) as [MessageAuditType, ...MessageAuditType[]];
const optionalDate = z.iso.datetime({ offset: true }).optional();

export const AuditQuery = z.object({
  endpointId: z.string().max(200).optional(),
  eventId: z.string().max(200).optional(),
  /** Who acted: a case-insensitive prefix of the auditor name. */
  auditorName: z.string().max(200).optional(),
  auditType: z.enum(AUDIT_TYPES).optional(),
  from: optionalDate,
  to: optionalDate,
  /** A literal substring of auditor, event id, endpoint, comment or data. */
  text: z.string().max(200).optional(),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
  continuationToken: z.string().max(2000).optional(),
});

/** The global audit log: every operator and administration action, newest first, searched in the store. */
export function auditRoutes(deps: ApiDeps): AnyRouteSpec[] {
  const { store, auditLog, catalog } = deps;
  return [
    defineRoute({
      method: 'GET',
      url: '/api/audits',
      tag: 'Audit',
      summary:
        'Search audit rows by who, action, endpoint, time range and text, newest first: site Owner for all, endpoint Reader with an endpointId filter',
      access: 'authenticated',
      query: AuditQuery,
      response: z.object({
        audits: z.array(AuditDto.extend({ createdAt: z.string() })),
        continuationToken: z.string().nullable(),
      }),
      handler: async ({ query, principal }) => {
        const endpointId = query.endpointId ? await catalog.canonical(query.endpointId) : null;
        await authorize(auditLog, principal!, endpointId ? Role.Reader : Role.Owner, endpointId);
        const from = query.from ? new Date(query.from) : null;
        const to = query.to ? new Date(query.to) : null;
        if (from && to && from > to)
          throw new HttpError(400, 'ValidationError', 'query.from: must not be after query.to', [
            { path: 'query.from', message: 'must not be after query.to' },
          ]);
        const result = await store.searchAudits({
          filter: {
            endpointId,
            endpointIdExact: endpointId !== null,
            eventId: query.eventId || null,
            auditorName: query.auditorName || null,
            auditType: query.auditType ?? null,
            createdAtFrom: from,
            createdAtTo: to,
            text: query.text || null,
          },
          continuationToken: query.continuationToken ?? null,
          maxItems: query.pageSize,
        });
        return {
          audits: result.audits
            .filter((a) => endpointId === null || a.endpointId?.toLowerCase() === endpointId.toLowerCase())
            .map((a) => ({ ...auditDto(a.audit), createdAt: a.createdAt.toISOString() })),
          continuationToken: result.continuationToken,
        };
      },
    }),
  ];
}
