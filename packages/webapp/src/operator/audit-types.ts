import { MessageAuditType } from '@nimbus/message-store';

/** Audit type per operator action. */
export const AUDIT_TYPE_OF = {
  resubmit: MessageAuditType.Resubmit,
  resubmitWithChanges: MessageAuditType.ResubmitWithChanges,
  skip: MessageAuditType.Skip,
  completeHandoff: MessageAuditType.CompleteHandoff,
  failHandoff: MessageAuditType.FailHandoff,
  reconcile: MessageAuditType.Reconcile,
  deleteEvent: MessageAuditType.DeleteEvent,
  reprocessDeferred: MessageAuditType.ReprocessDeferred,
  copyEndpointData: MessageAuditType.CopyEndpointData,
  comment: MessageAuditType.Comment,
} as const;

export type OperatorAction = keyof typeof AUDIT_TYPE_OF;
