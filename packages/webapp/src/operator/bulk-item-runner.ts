import type { AuditLog } from '../audit/audit-log.js';
import type { Principal } from '../auth/principal.js';
import { AUDIT_TYPE_OF } from './audit-types.js';
import type { BulkAction } from './bulk-job-store.js';
import type { BulkItemRun } from './bulk-jobs.js';
import type { OperatorActions } from './operator-actions.js';

/** The job's stored request says whether it acknowledged out-of-order resubmits. */
export const withAcknowledgement = (filter: Record<string, unknown>, acknowledged: boolean) =>
  acknowledged ? { ...filter, acknowledgeOutOfOrder: true } : filter;
export const acknowledgedIn = (filter: Readonly<Record<string, unknown>>) =>
  filter.acknowledgeOutOfOrder === true;

/** What a job acts with: the fields of a stored job its runner needs. */
export interface RunnableJob {
  readonly jobId: string;
  readonly action: BulkAction;
  readonly comment: string | null;
  readonly filter: Readonly<Record<string, unknown>>;
}

/**
 * The single action a job performs on each of its events, as `principal`: resubmit or skip, exactly as the
 * event's own button would (its own audit row with `bulkJobId`). Out-of-order resubmits only when the job's
 * request acknowledged them (kept in the stored request, so a resume keeps it).
 */
export function bulkItemRunner(
  actions: OperatorActions,
  principal: Principal,
  job: RunnableJob,
): BulkItemRun {
  const outOfOrder = acknowledgedIn(job.filter);
  return async (item) => {
    const row = await actions.loadRow({ endpointId: item.endpointId, eventId: item.eventId });
    const context = { bulkJobId: job.jobId };
    const result =
      job.action === 'resubmit'
        ? await actions.resubmit(principal, row, undefined, job.comment, context, outOfOrder)
        : await actions.skip(principal, row, job.comment, context);
    return { messageId: result.messageId };
  };
}

/** The one audit row of a job's own steps (start, cancel, resume), filed under `bulk-job:<jobId>`. */
export function auditBulkJob(
  auditLog: AuditLog,
  principal: Principal,
  job: { jobId: string; action: BulkAction; endpointIds: readonly string[] },
  data: Record<string, unknown>,
): Promise<void> {
  return auditLog.write({
    type: AUDIT_TYPE_OF[job.action],
    principal,
    subject: `bulk-job:${job.jobId}`,
    endpointId: job.endpointIds.length === 1 ? job.endpointIds[0] : null,
    data: { ...data, jobId: job.jobId, endpointIds: job.endpointIds },
  });
}
