import { MessageAuditType } from '@nimbus/message-store';

/**
 * Audit type per operator action. The store's enum has no dedicated value for some actions yet, so those
 * reuse the closest one and say what happened in the row's data (`action`).
 */
export const AUDIT_TYPE_OF = {
  resubmit: MessageAuditType.Resubmit,
  resubmitWithChanges: MessageAuditType.ResubmitWithChanges,
  skip: MessageAuditType.Skip,
  completeHandoff: MessageAuditType.CompleteHandoff,
  failHandoff: MessageAuditType.FailHandoff,
  reconcile: MessageAuditType.Reconcile,
  deleteEvent: MessageAuditType.PurgeMessages,
  reprocessDeferred: MessageAuditType.Retry,
  copyEndpointData: MessageAuditType.PurgeMessages,
} as const;

export type OperatorAction = keyof typeof AUDIT_TYPE_OF;
