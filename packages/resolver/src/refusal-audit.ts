import type { Clock, MessageEnvelope } from '@nimbus/core';
import { MessageAuditType, type MessageEntityWrite } from '@nimbus/message-store';
import type { ResolverStore } from './resolver-store.js';

/**
 * One `Refused` audit row per refusal the engine sent: the operator's action shows, next to its own audit row,
 * that the bus refused it and why. `data` is the id of the refused request (the refusal's parent), so the row
 * is written once even when the refusal is seen again after a failure.
 */
export async function auditRefusal(
  store: ResolverStore,
  record: MessageEntityWrite,
  refusal: MessageEnvelope,
  firstSighting: boolean,
  deps: { readonly clock: Clock; readonly auditorName: string },
): Promise<void> {
  const refusedRequestId = refusal.parentMessageId;
  if (!firstSighting) {
    const audits = await store.getMessageAudits(record.eventId);
    if (audits.some((a) => a.auditType === MessageAuditType.Refused && a.data === refusedRequestId)) return;
  }
  await store.storeMessageAudit({
    eventId: record.eventId,
    audit: {
      auditorName: refusal.from ?? deps.auditorName,
      auditTimestamp: new Date(deps.clock.now()),
      auditType: MessageAuditType.Refused,
      comment: refusal.content.errorContent?.errorText ?? 'Refused by the endpoint.',
      data: refusedRequestId,
    },
    endpointId: record.endpointId,
    eventTypeId: record.eventTypeId,
  });
}
