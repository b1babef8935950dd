import { type HeartbeatSettings, MessageAuditType } from '@nimbus/message-store';
import { z } from 'zod';
import type { ApiDeps } from '../app/api-deps.js';
import { authorize } from '../auth/authorize.js';
import { iso } from '../http/dto.js';
import { type AnyRouteSpec, defineRoute } from '../http/route.js';
import { Role } from '../identity/roles.js';
import { effectiveHeartbeatStatus, lastSeenAgeSeconds } from '../operator/heartbeat-freshness.js';

const Settings = z.object({
  enabled: z.boolean(),
  intervalSeconds: z.number(),
  timeoutSeconds: z.number(),
  /** Beats missed in a row before a Late endpoint counts as Off. */
  missedBeatsUntilOff: z.number(),
  lastSentAtUtc: z.string().nullable(),
});

function settingsDto(settings: HeartbeatSettings): z.infer<typeof Settings> {
  return {
    enabled: settings.enabled,
    intervalSeconds: settings.intervalSeconds,
    timeoutSeconds: settings.timeoutSeconds,
    missedBeatsUntilOff: settings.missedBeatsUntilOff,
    lastSentAtUtc: iso(settings.lastSentAtUtc),
  };
}

export function healthRoutes(deps: ApiDeps): AnyRouteSpec[] {
  const { store, auditLog, catalog, hub } = deps;
  return [
    defineRoute({
      method: 'GET',
      url: '/api/heartbeat/overview',
      tag: 'Heartbeat',
      summary: 'Latest heartbeat of every endpoint (site Reader)',
      access: 'authenticated',
      response: z.array(
        z.object({
          endpointId: z.string(),
          status: z.string(),
          isHeartbeatEnabled: z.boolean().nullable(),
          lastStartTime: z.string().nullable(),
          lastReceivedTime: z.string().nullable(),
          lastEndTime: z.string().nullable(),
          roundTripMs: z.number().nullable(),
          sdkVersion: z.string().nullable(),
          /** The stored status, before freshness is applied. */
          reportedStatus: z.string(),
          lastSeenAgeSeconds: z.number().nullable(),
        }),
      ),
      handler: async ({ principal }) => {
        await authorize(auditLog, principal!, Role.Reader, null);
        const settings = await store.getHeartbeatSettings();
        const now = deps.clock.now();
        const rows = new Map(
          (await store.getHeartbeatOverview()).map((r) => [r.endpointId.toLowerCase(), r]),
        );
        return (await catalog.list()).map((endpointId) => {
          const row = rows.get(endpointId.toLowerCase());
          const reportedStatus = row?.status ?? 'Unknown';
          const lastAnswer = row?.lastEndTime ?? null;
          return {
            endpointId,
            status: effectiveHeartbeatStatus(reportedStatus, lastAnswer, settings, now),
            reportedStatus,
            lastSeenAgeSeconds: lastSeenAgeSeconds(lastAnswer, now),
            isHeartbeatEnabled: row?.isHeartbeatEnabled ?? null,
            lastStartTime: iso(row?.lastStartTime),
            lastReceivedTime: iso(row?.lastReceivedTime),
            lastEndTime: iso(row?.lastEndTime),
            roundTripMs: row?.roundTripMs ?? null,
            sdkVersion: row?.sdkVersion || null,
          };
        });
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/health/services',
      tag: 'Heartbeat',
      summary: 'Liveness of the platform services such as the Resolver (site Reader)',
      access: 'authenticated',
      response: z.array(
        z.object({
          serviceId: z.string(),
          status: z.string(),
          version: z.string().nullable(),
          lastProbeSentUtc: z.string().nullable(),
          lastSeenUtc: z.string().nullable(),
          roundTripMs: z.number().nullable(),
          probeInFlight: z.boolean(),
        }),
      ),
      handler: async ({ principal }) => {
        await authorize(auditLog, principal!, Role.Reader, null);
        return (await store.getServiceHealth()).map((h) => ({
          serviceId: h.serviceId,
          status: h.status,
          version: h.version,
          lastProbeSentUtc: iso(h.lastProbeSentUtc),
          lastSeenUtc: iso(h.lastSeenUtc),
          roundTripMs: h.roundTripMs,
          probeInFlight: h.lastProbeMessageId !== null,
        }));
      },
    }),
    defineRoute({
      method: 'GET',
      url: '/api/heartbeat/settings',
      tag: 'Heartbeat',
      summary: 'Scheduled heartbeat settings (site Reader)',
      access: 'authenticated',
      response: Settings,
      handler: async ({ principal }) => {
        await authorize(auditLog, principal!, Role.Reader, null);
        return settingsDto(await store.getHeartbeatSettings());
      },
    }),
    defineRoute({
      method: 'PUT',
      url: '/api/heartbeat/settings',
      tag: 'Heartbeat',
      summary:
        'Change the scheduled heartbeat (site Owner); interval at least 30 s, timeout 5 s to the interval, ' +
        '1 to 100 missed beats until Off (absent: unchanged)',
      access: 'authenticated',
      body: z.object({
        enabled: z.boolean(),
        intervalSeconds: z.number().int().min(30).max(86_400),
        timeoutSeconds: z.number().int().min(5).max(86_400),
        missedBeatsUntilOff: z.number().int().min(1).max(100).optional(),
      }),
      response: Settings,
      handler: async ({ body, principal }) => {
        await authorize(auditLog, principal!, Role.Owner, null, {
          type: MessageAuditType.UpdateHeartbeatSettings,
          data: body,
        });
        const current = await store.getHeartbeatSettings();
        const timeoutSeconds = Math.min(body.timeoutSeconds, body.intervalSeconds);
        await store.setHeartbeatSettings({
          ...current,
          ...body,
          timeoutSeconds,
          lastSentAtUtc: null,
          lastHeartbeatFoldAtUtc: null,
        });
        await auditLog.write({
          type: MessageAuditType.UpdateHeartbeatSettings,
          principal: principal!,
          data: { ...body, timeoutSeconds },
        });
        hub.publish({ type: 'heartbeatupdate', endpointId: '' });
        return settingsDto(await store.getHeartbeatSettings());
      },
    }),
  ];
}
