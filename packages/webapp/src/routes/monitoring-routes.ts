import { type InputControl, RESOLVER_INPUT } from '@nimbus/core';
import { MessageAuditType } from '@nimbus/message-store';
import { z } from 'zod';
import type { ApiDeps } from '../app/api-deps.js';
import { authorize } from '../auth/authorize.js';
import type { Principal } from '../auth/principal.js';
import { conflict } from '../http/http-error.js';
import { type AnyRouteSpec, defineRoute } from '../http/route.js';
import { Role } from '../identity/roles.js';
import { snapshotInputs } from '../monitoring/input-snapshot.js';

/**
 * ServicePulse-style monitoring: per endpoint input the backlog, processing time, critical time (publish →
 * handled) and throughput, the console's pause of its consumers, and thresholds the alerting watches. Pausing
 * is a flag in the transport's control state (`Transport.control`) that every host of the input polls.
 */

const InputParams = z.object({ input: z.string().min(1).max(200) });

const Snapshot = z.object({
  input: z.string(),
  backlog: z.number().nullable().describe('messages waiting on the input'),
  scheduled: z.number().nullable(),
  parked: z.number().nullable(),
  deadLettered: z.number().nullable(),
  countError: z.string().nullable().describe('why the transport could not count this input'),
  paused: z.boolean(),
  pausedBy: z.string().nullable(),
  pausedAt: z.string().nullable(),
  processingAvgMs: z.number().nullable(),
  processingMaxMs: z.number().nullable(),
  criticalAvgMs: z.number().nullable().describe('average publish → handled time in the window'),
  criticalMaxMs: z.number().nullable(),
  throughputPerSecond: z.number(),
  handled: z.number(),
  failed: z.number(),
  maxBacklog: z.number().nullable(),
  maxCriticalTimeMs: z.number().nullable(),
  breaches: z.array(z.string()).describe('thresholds the input is over now'),
});

const Thresholds = z.object({
  maxBacklog: z.number().int().min(0).max(1_000_000_000).nullable(),
  maxCriticalTimeMs: z.number().int().min(1).max(86_400_000).nullable(),
});

export function monitoringRoutes(deps: ApiDeps): AnyRouteSpec[] {
  const { transport, catalog, auditLog, store, clock, hub } = deps;

  const controlOf = (): InputControl => {
    if (!transport.control)
      throw conflict(
        `The ${transport.name} transport keeps no control state: inputs cannot be paused or given thresholds.`,
      );
    return transport.control;
  };

  /** Checks the role, writes the audit row, then hands out the control state: if the audit fails, nothing changes. */
  const auditedControl = async (
    principal: Principal,
    role: Role,
    input: string,
    type: MessageAuditType,
    data: Record<string, unknown>,
  ): Promise<InputControl> => {
    const eventId = `monitoring/${input}`;
    await authorize(auditLog, principal, role, input, { type, eventId, data });
    const control = controlOf();
    await auditLog.write({ type, principal, eventId, endpointId: input, data });
    return control;
  };

  const changePause = (paused: boolean) =>
    defineRoute({
      method: 'POST',
      url: `/api/monitoring/:input/${paused ? 'pause' : 'resume'}`,
      tag: 'Monitoring',
      summary: paused
        ? "Pauses the input's consumers: every host stops taking messages within its poll (Contributor); messages wait"
        : "Resumes the input's consumers (Contributor)",
      access: 'authenticated',
      params: InputParams,
      body: z.object({ comment: z.string().max(2000).optional() }),
      response: z.object({ input: z.string(), paused: z.boolean() }),
      handler: async ({ params, body, principal }) => {
        const input = await catalog.canonical(params.input);
        const type = paused ? MessageAuditType.PauseInput : MessageAuditType.ResumeInput;
        const data = { action: paused ? 'pauseInput' : 'resumeInput', input, comment: body.comment };
        const control = await auditedControl(principal!, Role.Contributor, input, type, data);
        await control.setPaused(input, { paused, by: principal!.name });
        hub.publish({ type: 'endpointupdate', endpointId: input });
        return { input, paused };
      },
    });

  return [
    defineRoute({
      method: 'GET',
      url: '/api/monitoring',
      tag: 'Monitoring',
      summary:
        'Backlog, processing time, critical time and throughput of every endpoint input you may read, with pause state and thresholds',
      access: 'authenticated',
      query: z.object({
        windowMinutes: z.coerce.number().int().min(1).max(1440).default(5),
      }),
      response: z.object({
        windowMinutes: z.number(),
        at: z.string(),
        controllable: z.boolean().describe('whether the transport keeps control state (pause, thresholds)'),
        inputs: z.array(Snapshot),
      }),
      handler: async ({ query, principal }) => {
        const inputs = (await catalog.list()).filter((id) => principal!.has(Role.Reader, id));
        const now = clock.now();
        return {
          windowMinutes: query.windowMinutes,
          at: new Date(now).toISOString(),
          controllable: transport.control !== undefined,
          inputs: await snapshotInputs({
            transport,
            store,
            inputs,
            windowMs: query.windowMinutes * 60_000,
            now,
          }),
        };
      },
    }),
    changePause(true),
    changePause(false),
    defineRoute({
      method: 'PUT',
      url: '/api/monitoring/:input/thresholds',
      tag: 'Monitoring',
      summary: 'Sets the thresholds the alerting watches for the input (Owner); null clears one',
      access: 'authenticated',
      params: InputParams,
      body: Thresholds,
      response: Thresholds.extend({ input: z.string() }),
      handler: async ({ params, body, principal }) => {
        const input = await catalog.canonical(params.input);
        const type = MessageAuditType.UpdateMonitoringThresholds;
        const data = { input, ...body };
        const control = await auditedControl(principal!, Role.Owner, input, type, data);
        await control.setThresholds(input, body);
        return { input, ...body };
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/dead-letters',
      tag: 'Dead letters',
      summary: "Dead-letter counts of every input you may read (and the Resolver's for site Readers)",
      access: 'authenticated',
      response: z.object({
        total: z.number(),
        inputs: z.array(
          z.object({ input: z.string(), deadLettered: z.number().nullable(), error: z.string().nullable() }),
        ),
      }),
      handler: async ({ principal }) => {
        const inputs = (await catalog.list()).filter((id) => principal!.has(Role.Reader, id));
        if (principal!.has(Role.Reader, null)) inputs.push(RESOLVER_INPUT);
        const rows = [];
        for (const input of inputs) {
          try {
            rows.push({ input, deadLettered: (await transport.counts(input)).deadLettered, error: null });
          } catch (error) {
            rows.push({ input, deadLettered: null, error: (error as Error).message });
          }
        }
        return { total: rows.reduce((n, r) => n + (r.deadLettered ?? 0), 0), inputs: rows };
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/custom-checks',
      tag: 'Monitoring',
      summary: 'The latest result of every custom check the endpoints you may read report through the SDK',
      access: 'authenticated',
      response: z.array(
        z.object({
          endpointId: z.string(),
          name: z.string(),
          healthy: z.boolean(),
          reason: z.string().nullable(),
          checkedAt: z.string(),
          ageSeconds: z.number(),
        }),
      ),
      handler: async ({ principal }) => {
        const checks = (await transport.control?.customChecks()) ?? [];
        const now = clock.now();
        return checks
          .filter((c) => principal!.has(Role.Reader, c.endpointId))
          .map((c) => ({
            ...c,
            checkedAt: c.checkedAt.toISOString(),
            ageSeconds: Math.max(0, Math.round((now - c.checkedAt.getTime()) / 1000)),
          }));
      },
    }),
  ];
}
