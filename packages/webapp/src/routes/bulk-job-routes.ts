import { uuidv7 } from '@nimbus/core';
import { MessageAuditType } from '@nimbus/message-store';
import { z } from 'zod';
import type { ApiDeps } from '../app/api-deps.js';
import type { Principal } from '../auth/principal.js';
import { publishedId } from '../http/dto.js';
import { conflict, notFound } from '../http/http-error.js';
import { type AnyRouteSpec, defineRoute } from '../http/route.js';
import { Role } from '../identity/roles.js';
import { auditBulkJob, bulkItemRunner, withAcknowledgement } from '../operator/bulk-item-runner.js';
import type { BulkAction, BulkJobItem, BulkJobStarter } from '../operator/bulk-job-store.js';
import type { BulkJobStatus, BulkJobs } from '../operator/bulk-jobs.js';
import { BULK_STATUSES } from '../operator/bulk-targets.js';
import type { OperatorActions } from '../operator/operator-actions.js';
import { acknowledgeOutOfOrder, optionalComment } from './action-routes.js';
import { BulkItemDto, BulkStatusDto, bulkStatusDto } from './bulk-job-dto.js';

const optionalDate = z.iso.datetime({ offset: true }).optional();

export const BulkFilterSchema = z
  .object({
    statuses: z.array(z.enum(BULK_STATUSES)).max(3).optional(),
    eventTypeIds: z.array(z.string().min(1).max(200)).max(50).optional(),
    failureSignature: z.string().min(1).max(400).optional(),
    sessionId: publishedId.min(1).optional(),
    updatedAtFrom: optionalDate,
    updatedAtTo: optionalDate,
    payload: z.string().min(1).max(500).optional(),
  })
  .strict();

const JobParams = z.object({ jobId: z.string().min(1).max(100) });

/** Who started a job, so a WebApp resuming it after a restart acts as them, capped as their token was. */
const starterOf = (principal: Principal): BulkJobStarter => ({
  userId: principal.user.id,
  maxRole:
    principal.credential.kind === 'token'
      ? principal.credential.token.maxRole
      : principal.credential.kind === 'bulkJob'
        ? principal.credential.maxRole
        : null,
});

/**
 * Bulk jobs: resubmit or skip every event a filter matches (or a list of ids), in the background, with
 * progress per event, a history, cancel and resume. Every event acted on writes its own audit row (as the
 * single action would), and starting, cancelling and resuming a job each write one more.
 */
export function bulkJobRoutes(deps: ApiDeps, actions: OperatorActions, bulkJobs: BulkJobs): AnyRouteSpec[] {
  const { catalog, store, auditLog } = deps;

  const auditJob = (
    principal: Principal,
    job: { jobId: string; action: BulkAction; endpointIds: readonly string[] },
    data: Record<string, unknown>,
  ) => auditBulkJob(auditLog, principal, job, data);

  /** A job the caller may read (Reader on each of its endpoints); 404 otherwise, as for a missing one. */
  const readableJob = async (principal: Principal, jobId: string): Promise<BulkJobStatus> => {
    const job = await bulkJobs.get(jobId);
    if (!job || !job.endpointIds.every((id) => principal.has(Role.Reader, id)))
      throw notFound(`Bulk job '${jobId}' not found.`);
    return job;
  };

  const authorizeAll = async (
    principal: Principal,
    action: BulkAction,
    endpointIds: readonly string[],
    data: object,
  ) => {
    for (const endpointId of endpointIds) await actions.authorize(principal, action, endpointId, null, data);
  };

  const startJob = async (
    principal: Principal,
    spec: {
      action: BulkAction;
      endpointIds: string[];
      filter: Record<string, unknown>;
      comment: string | null;
    },
    targets: readonly Omit<BulkJobItem, 'position'>[] | 'collect',
  ) => {
    const jobId = uuidv7();
    await auditJob(
      principal,
      { jobId, ...spec },
      {
        action: spec.action === 'resubmit' ? 'bulkResubmit' : 'bulkSkip',
        ...(spec.comment ? { comment: spec.comment } : {}),
        filter: spec.filter,
        // A filter job reads its events itself after this answer: its total is on the job.
        ...(targets === 'collect' ? {} : { total: targets.length }),
      },
    );
    const { job } = await bulkJobs.start(
      { ...spec, jobId, createdBy: principal.name, startedBy: starterOf(principal) },
      targets,
      bulkItemRunner(actions, principal, { ...spec, jobId }),
    );
    return bulkStatusDto(job);
  };

  return [
    defineRoute({
      method: 'POST',
      url: '/api/bulk-jobs',
      tag: 'Bulk job',
      summary:
        'Resubmit or skip every Failed, DeadLettered or Unsupported event a filter matches on the given endpoints, in the background (Contributor on each)',
      access: 'authenticated',
      body: z.object({
        action: z.enum(['resubmit', 'skip']),
        endpointIds: z
          .array(z.string().min(1).max(200))
          .min(1, 'endpointIds needs at least one endpoint')
          .max(100),
        filter: BulkFilterSchema,
        comment: optionalComment,
        acknowledgeOutOfOrder,
      }),
      response: BulkStatusDto,
      successStatus: 202,
      handler: async ({ body, principal }) => {
        const endpointIds = [
          ...new Set(await Promise.all(body.endpointIds.map((id) => catalog.canonical(id)))),
        ];
        await authorizeAll(principal!, body.action, endpointIds, { bulk: 'filter', filter: body.filter });
        // The job reads the events its filter matches itself (in pages, cancellable): the start answers at once.
        return startJob(
          principal!,
          {
            action: body.action,
            endpointIds,
            filter: withAcknowledgement(body.filter, body.acknowledgeOutOfOrder),
            comment: body.comment,
          },
          'collect',
        );
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/api/endpoints/:endpointId/bulk',
      tag: 'Bulk job',
      summary: 'Resubmit or skip up to 1000 events given by id, in the background (Contributor)',
      access: 'authenticated',
      params: z.object({ endpointId: z.string().min(1).max(200) }),
      body: z.object({
        action: z.enum(['resubmit', 'skip']),
        eventIds: z.array(publishedId.min(1)).min(1, 'eventIds needs at least one id').max(1000),
        comment: optionalComment,
        acknowledgeOutOfOrder,
      }),
      response: BulkStatusDto,
      successStatus: 202,
      handler: async ({ params, body, principal }) => {
        const endpointId = await catalog.canonical(params.endpointId);
        await actions.authorize(principal!, body.action, endpointId, null, { bulk: body.eventIds.length });
        const eventIds = [...new Set(body.eventIds)];
        const targets = eventIds.map((eventId) => ({
          endpointId,
          eventId,
          sessionId: '',
          outcome: 'pending' as const,
          message: null,
          messageId: null,
        }));
        return startJob(
          principal!,
          {
            action: body.action,
            endpointIds: [endpointId],
            filter: withAcknowledgement({ eventIds }, body.acknowledgeOutOfOrder),
            comment: body.comment,
          },
          targets,
        );
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/bulk-jobs',
      tag: 'Bulk job',
      summary: 'The history of bulk jobs, newest first (the ones on endpoints the caller may read)',
      access: 'authenticated',
      query: z.object({
        limit: z.coerce.number().int().min(1).max(200).default(50),
        before: z.string().min(1).max(100).optional(),
      }),
      response: z.array(BulkStatusDto),
      handler: async ({ query, principal }) => {
        const jobs = await bulkJobs.list(query.limit, query.before ?? null);
        return jobs
          .filter((j) => j.endpointIds.every((id) => principal!.has(Role.Reader, id)))
          .map(bulkStatusDto);
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/bulk-jobs/:jobId',
      tag: 'Bulk job',
      summary: 'Progress of a bulk job',
      access: 'authenticated',
      params: JobParams,
      response: BulkStatusDto,
      handler: async ({ params, principal }) => bulkStatusDto(await readableJob(principal!, params.jobId)),
    }),
    defineRoute({
      method: 'GET',
      url: '/api/bulk-jobs/:jobId/items',
      tag: 'Bulk job',
      summary:
        'The events of a bulk job and what each came to (sent, refused with the reason, failed, pending)',
      access: 'authenticated',
      params: JobParams,
      query: z.object({
        outcome: z.enum(['pending', 'sent', 'refused', 'failed']).optional(),
        offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
        limit: z.coerce.number().int().min(1).max(500).default(100),
      }),
      response: z.object({ job: BulkStatusDto, items: z.array(BulkItemDto) }),
      handler: async ({ params, query, principal }) => {
        const job = await readableJob(principal!, params.jobId);
        const page = await bulkJobs.items(job.jobId, query);
        // While the job runs its own counts are authoritative; once it is done the engine's refusals are read in.
        const items = job.done
          ? await bulkJobs.settleRefusals(job.jobId, page, async (item) => {
              const refusal = (await store.getMessageAudits(item.eventId)).find(
                (a) => a.auditType === MessageAuditType.Refused && a.data === item.messageId,
              );
              return refusal ? (refusal.comment ?? 'Refused by the endpoint.') : null;
            })
          : page;
        const current = (await bulkJobs.get(job.jobId)) ?? job;
        return { job: bulkStatusDto(current), items: [...items] };
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/api/bulk-jobs/:jobId/cancel',
      tag: 'Bulk job',
      summary: 'Stop a running bulk job before its next event (Contributor on each of its endpoints)',
      access: 'authenticated',
      params: JobParams,
      response: BulkStatusDto,
      successStatus: 202,
      handler: async ({ params, principal }) => {
        const job = await readableJob(principal!, params.jobId);
        await authorizeAll(principal!, job.action, job.endpointIds, { bulkJob: 'cancel', jobId: job.jobId });
        if (job.done) throw conflict(`Bulk job '${job.jobId}' is already ${job.state}.`);
        await auditJob(principal!, job, {
          action: 'cancelBulkJob',
          processed: job.processed,
          total: job.total,
        });
        await bulkJobs.cancel(job);
        return bulkStatusDto({ ...((await bulkJobs.get(job.jobId)) ?? job) });
      },
    }),
    defineRoute({
      method: 'POST',
      url: '/api/bulk-jobs/:jobId/resume',
      tag: 'Bulk job',
      summary:
        'Continue an interrupted bulk job with the events it had not reached (Contributor on each endpoint)',
      access: 'authenticated',
      params: JobParams,
      response: BulkStatusDto,
      successStatus: 202,
      handler: async ({ params, principal }) => {
        const job = await readableJob(principal!, params.jobId);
        await authorizeAll(principal!, job.action, job.endpointIds, { bulkJob: 'resume', jobId: job.jobId });
        if (!job.interrupted)
          throw conflict(
            `Bulk job '${job.jobId}' is not interrupted (it is ${job.done ? job.state : 'running on a WebApp instance'}).`,
          );
        await auditJob(principal!, job, { action: 'resumeBulkJob', remaining: job.remaining });
        const resumed = await bulkJobs.resume(job.jobId, bulkItemRunner(actions, principal!, job));
        if (!resumed) throw conflict(`Bulk job '${job.jobId}' was resumed by another WebApp instance.`);
        return bulkStatusDto((await bulkJobs.get(job.jobId)) ?? job);
      },
    }),
  ];
}
