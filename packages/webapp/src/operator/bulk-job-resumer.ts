import type { Logger } from '@nimbus/core';
import type { AuditLog } from '../audit/audit-log.js';
import { Principal } from '../auth/principal.js';
import type { IdentityStore } from '../identity/identity-store.js';
import type { Role } from '../identity/roles.js';
import { auditBulkJob, bulkItemRunner } from './bulk-item-runner.js';
import type { StoredBulkJob } from './bulk-job-store.js';
import type { BulkJobs } from './bulk-jobs.js';
import type { OperatorActions } from './operator-actions.js';

export interface BulkJobResumerOptions {
  readonly bulkJobs: BulkJobs;
  readonly actions: OperatorActions;
  readonly identityStore: IdentityStore;
  readonly auditLog: AuditLog;
  readonly logger: Logger;
  /** How often to look for jobs an instance left behind; default 10 000 ms. */
  readonly intervalMs?: number;
}

/**
 * Resumes the bulk jobs a stopped WebApp left running: at start and every `intervalMs`, every running job whose
 * lease ran out (a crash: after 30 s) or was released (a clean stop: at once) is claimed (one instance wins) and
 * goes on with its events still pending, as the user who started it, with the roles that user holds now (capped
 * as the starting token was). A job whose user was deleted or disabled stays interrupted for an operator.
 */
export class BulkJobResumer {
  #timer: NodeJS.Timeout | null = null;
  #pass: Promise<void> = Promise.resolve();

  constructor(private readonly options: BulkJobResumerOptions) {}

  start(): void {
    this.#schedule();
    this.#timer = setInterval(() => this.#schedule(), this.options.intervalMs ?? 10_000);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#pass;
  }

  /** One pass: resumes every interrupted job it can; resolves with the ids it resumed. */
  async resumeInterrupted(): Promise<string[]> {
    const resumed: string[] = [];
    for (const job of await this.options.bulkJobs.interrupted()) {
      const principal = await this.#principalOf(job);
      if (!principal) continue;
      const run = bulkItemRunner(this.options.actions, principal, job);
      const claimed = await this.options.bulkJobs.resume(job.jobId, run);
      if (!claimed) continue;
      await auditBulkJob(this.options.auditLog, principal, job, {
        action: 'resumeBulkJob',
        automatic: true,
        remaining: job.total - job.processed,
      });
      this.options.logger.info(
        { jobId: job.jobId, remaining: job.total - job.processed },
        'Resumed a bulk job a stopped WebApp left running',
      );
      resumed.push(job.jobId);
    }
    return resumed;
  }

  #schedule(): void {
    this.#pass = this.#pass
      .then(() => this.resumeInterrupted())
      .then(
        () => undefined,
        (error: unknown) => this.options.logger.warn({ error }, 'Could not resume interrupted bulk jobs'),
      );
  }

  async #principalOf(job: StoredBulkJob): Promise<Principal | null> {
    if (!job.startedBy) return null;
    const { identityStore } = this.options;
    const user = await identityStore.findUserById(job.startedBy.userId);
    if (!user || user.disabledAt !== null) {
      this.options.logger.warn(
        { jobId: job.jobId },
        'A bulk job stays interrupted: the user who started it is deleted or disabled (an operator may resume it)',
      );
      return null;
    }
    const grants = await identityStore.listEndpointRoles(user.id);
    return new Principal(
      user,
      { kind: 'bulkJob', jobId: job.jobId, maxRole: (job.startedBy.maxRole as Role | null) ?? null },
      new Map(grants.map((g) => [g.endpointId, g.role])),
    );
  }
}
