import { Header, uuidv7 } from '@nimbus/core';
import { MessageAuditType } from '@nimbus/message-store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver } from './support/alert-sinks.js';
import { ApiClient } from './support/api-client.js';
import { MONITOR_READER, type MonitoringStack, startMonitoringStack } from './support/monitoring-stack.js';

type Json = Record<string, unknown>;
interface Row {
  input: string;
  backlog: number | null;
  paused: boolean;
  pausedBy: string | null;
  processingAvgMs: number | null;
  criticalAvgMs: number | null;
  throughputPerSecond: number;
  handled: number;
  breaches: string[];
  deadLettered: number | null;
}
const WAIT = { timeout: 20_000, interval: 100 };

/**
 * #26 ServicePulse's monitoring on the default stack (SQLite store and transport, the Resolver and a real Erp
 * endpoint host in this process): backlog, processing and critical time, throughput; pause/resume of an input's
 * consumers through the transport's control state (audited, role-checked, kept across a host restart); custom
 * checks an adapter registers through the SDK, with their alerts; thresholds that alert; the dead-letter overview.
 */
describe('WebApp monitoring on SQLite with a real endpoint host', () => {
  let s: MonitoringStack;
  let reader: ApiClient;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  const erp = async (): Promise<Row> => {
    const answer = await s.admin.get('/api/monitoring');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return (answer.body as { inputs: Row[] }).inputs.find((i) => i.input === 'Erp')!;
  };
  const audits = async (type: string) =>
    (
      await s.store.searchAudits({
        filter: { auditType: type as MessageAuditType },
        continuationToken: null,
        maxItems: 20,
      })
    ).audits;

  beforeAll(async () => {
    s = await startMonitoringStack({ uiDistDir: '/nonexistent' });
    reader = new ApiClient(s.url);
    await reader.login(MONITOR_READER.email, MONITOR_READER.password);
    receiver = await startWebhookReceiver();
  }, 60_000);
  afterAll(async () => {
    await s?.close();
    await receiver?.close();
  });

  it('shows the backlog growing while the adapter is stopped and draining when it comes back, with times and throughput', async () => {
    await s.stopErp();
    await s.publish(6);
    await expect.poll(async () => (await erp()).backlog, WAIT).toBe(6);
    const before = s.handled;
    await s.startErp();
    await expect.poll(async () => (await erp()).backlog, WAIT).toBe(0);
    await expect.poll(() => s.handled - before, WAIT).toBe(6);
    // The outcomes reach the store through the Resolver: the times and throughput follow.
    await expect.poll(async () => (await erp()).handled, WAIT).toBeGreaterThanOrEqual(6);
    const row = await erp();
    expect(row.processingAvgMs).not.toBeNull();
    // The six waited on the input while the adapter was down: publish → handled is longer than processing.
    expect(row.criticalAvgMs!).toBeGreaterThan(row.processingAvgMs!);
    expect(row.throughputPerSecond).toBeGreaterThan(0);
    // A Reader sees it too.
    expect((await reader.get('/api/monitoring')).status).toBe(200);
    expect((await reader.get('/api/monitoring?windowMinutes=0')).status).toBe(400);
  });

  it('pauses an input: the host takes nothing (also after a restart), resumes it, and both are audited; a Reader may not', async () => {
    const refused = await reader.post('/api/monitoring/Erp/pause', {});
    expect(refused.status).toBe(403);
    expect((await audits(MessageAuditType.PauseInput)).some((a) => a.audit.accessDenied === true)).toBe(true);
    expect((await s.admin.post('/api/monitoring/Nope/pause', {})).status).toBe(404);

    const paused = await s.admin.post('/api/monitoring/Erp/pause', { comment: 'ERP maintenance' });
    expect(paused).toMatchObject({ status: 200, body: { input: 'Erp', paused: true } });
    await new Promise((r) => setTimeout(r, 600)); // the host's pause poll is 200 ms
    const before = s.handled;
    await s.publish(3);
    await expect.poll(async () => (await erp()).backlog, WAIT).toBe(3);
    // A restarted host reads the flag before it takes anything.
    await s.stopErp();
    await s.startErp();
    await new Promise((r) => setTimeout(r, 1_500));
    expect(s.handled).toBe(before);
    expect(await erp()).toMatchObject({
      backlog: 3,
      paused: true,
      pausedBy: 'Administrator',
    });

    expect((await s.admin.post('/api/monitoring/Erp/resume', {})).status).toBe(200);
    await expect.poll(() => s.handled - before, WAIT).toBe(3);
    expect(await erp()).toMatchObject({ backlog: 0, paused: false });
    const pauses = (await audits(MessageAuditType.PauseInput)).filter((a) => a.audit.accessDenied !== true);
    expect(pauses[0]?.audit.data).toContain('ERP maintenance');
    expect(await audits(MessageAuditType.ResumeInput)).toHaveLength(1);
  });

  it('shows a custom check turning unhealthy with its reason and alerts once per outage', async () => {
    const sub = await s.admin.post('/api/endpoints/Erp/alert-subscriptions', {
      channel: 'webhook',
      url: receiver.url,
      secret: 'monitoring-test-secret',
      triggers: ['CustomCheckFailed'],
    });
    expect(sub.status, JSON.stringify(sub.body)).toBe(201);
    const check = async () =>
      ((await reader.get('/api/custom-checks')).body as Json[]).find((c) => c.name === 'vat-registry');
    await expect.poll(async () => (await check())?.healthy, WAIT).toBe(true);
    await s.webApp.alerting.runOnce();
    s.registryHealthy = false;
    await expect.poll(async () => (await check())?.healthy, WAIT).toBe(false);
    expect(await check()).toMatchObject({
      endpointId: 'Erp',
      reason: 'VAT registry answers 503 Service Unavailable',
    });
    await s.webApp.alerting.runOnce();
    await s.webApp.alerting.runOnce();
    const sent = () => receiver.received.map((r) => JSON.parse(r.body) as Json);
    const notices = () => sent().filter((b) => b.trigger === 'CustomCheckFailed');
    const stateOf = (b: Json) => (b.alert as { state: string }).state;
    await expect.poll(() => notices().length, WAIT).toBe(1);
    expect(notices()[0]).toMatchObject({
      endpointId: 'Erp',
      summary: expect.stringContaining('503'),
      alert: { state: 'open', key: 'custom-check:Erp:vat-registry' },
    });
    s.registryHealthy = true;
    await expect.poll(async () => (await check())?.healthy, WAIT).toBe(true);
    // Healthy again: exactly one resolved notice, however many rounds run.
    await s.webApp.alerting.runOnce();
    await s.webApp.alerting.runOnce();
    await expect.poll(() => notices().length, WAIT).toBe(2);
    await s.webApp.alerting.runOnce();
    await new Promise((r) => setTimeout(r, 300));
    expect(notices().map(stateOf)).toEqual(['open', 'resolved']);
    expect(notices()[1]).toMatchObject({ summary: expect.stringMatching(/^Resolved: .*was VAT registry/) });
    // The next outage is a new alert of the same thread, and it resolves once again.
    s.registryHealthy = false;
    await expect.poll(async () => (await check())?.healthy, WAIT).toBe(false);
    await s.webApp.alerting.runOnce();
    await expect.poll(() => notices().length, WAIT).toBe(3);
    s.registryHealthy = true;
    await expect.poll(async () => (await check())?.healthy, WAIT).toBe(true);
    await s.webApp.alerting.runOnce();
    await s.webApp.alerting.runOnce();
    await expect.poll(() => notices().length, WAIT).toBe(4);
    expect(notices().map(stateOf)).toEqual(['open', 'resolved', 'open', 'resolved']);
  });

  it('alerts when an input goes over its backlog threshold (Owner sets it, audited)', async () => {
    expect(
      (await reader.put('/api/monitoring/Erp/thresholds', { maxBacklog: 2, maxCriticalTimeMs: null })).status,
    ).toBe(403);
    expect(
      (await s.admin.put('/api/monitoring/Erp/thresholds', { maxBacklog: -1, maxCriticalTimeMs: null }))
        .status,
    ).toBe(400);
    const set = await s.admin.put('/api/monitoring/Erp/thresholds', {
      maxBacklog: 2,
      maxCriticalTimeMs: null,
    });
    expect(set).toMatchObject({ status: 200, body: { input: 'Erp', maxBacklog: 2 } });
    expect(await audits(MessageAuditType.UpdateMonitoringThresholds)).not.toHaveLength(0);
    const sub = await s.admin.post('/api/endpoints/Erp/alert-subscriptions', {
      channel: 'webhook',
      url: receiver.url,
      secret: 'monitoring-test-secret',
      triggers: ['MonitoringThreshold'],
    });
    expect(sub.status, JSON.stringify(sub.body)).toBe(201);
    await s.admin.post('/api/monitoring/Erp/pause', {});
    await new Promise((r) => setTimeout(r, 600));
    const before = s.handled;
    await s.publish(3);
    await expect.poll(async () => (await erp()).breaches, WAIT).toEqual(['backlog 3 > 2']);
    await s.webApp.alerting.runOnce();
    await s.webApp.alerting.runOnce();
    const threshold = () =>
      receiver.received
        .map((r) => JSON.parse(r.body) as Json)
        .filter((b) => b.trigger === 'MonitoringThreshold');
    await expect.poll(() => threshold().length, WAIT).toBe(1);
    expect(threshold()[0]).toMatchObject({
      endpointId: 'Erp',
      summary: expect.stringContaining('backlog 3 > 2'),
    });
    expect(threshold()[0]).toMatchObject({ alert: { state: 'open' } });
    await s.admin.post('/api/monitoring/Erp/resume', {});
    await expect.poll(() => s.handled - before, WAIT).toBe(3);
    expect((await erp()).breaches).toEqual([]);
    // Drained: exactly one resolved notice, however many rounds run.
    await s.webApp.alerting.runOnce();
    await s.webApp.alerting.runOnce();
    await expect.poll(() => threshold().length, WAIT).toBe(2);
    await s.webApp.alerting.runOnce();
    await new Promise((r) => setTimeout(r, 300));
    expect(threshold().map((b) => (b.alert as { state: string }).state)).toEqual(['open', 'resolved']);
    expect(threshold()[1]).toMatchObject({
      endpointId: 'Erp',
      summary: expect.stringContaining('Resolved: Erp is over its monitoring threshold (was backlog 3 > 2)'),
    });
  });

  it('gives dead-letter counts per input, and a purge (Owner, audited) empties one', async () => {
    await s.transport.publish([
      {
        source: 'Erp',
        messages: [
          {
            messageId: uuidv7(),
            sessionId: 'dl-mon',
            correlationId: null,
            headers: { [Header.To]: 'Erp' },
            body: '{}',
          },
        ],
      },
    ]);
    await expect
      .poll(async () => {
        const body = (await reader.get('/api/dead-letters')).body as { inputs: Json[] };
        return body.inputs.find((i) => i.input === 'Erp')?.deadLettered;
      }, WAIT)
      .toBe(1);
    const overview = (await reader.get('/api/dead-letters')).body as { total: number; inputs: Json[] };
    expect(overview.inputs.map((i) => i.input)).toEqual(['Crm', 'Erp', 'Resolver']);
    expect(overview.total).toBeGreaterThanOrEqual(1);
    expect((await reader.post('/api/dead-letters/Erp/purge', {})).status).toBe(403);
    expect(await s.admin.post('/api/dead-letters/Erp/purge', {})).toMatchObject({
      status: 200,
      body: { purged: 1 },
    });
    expect((await erp()).deadLettered).toBe(0);
    expect((await audits(MessageAuditType.PurgeDeadLetters)).some((a) => a.audit.accessDenied !== true)).toBe(
      true,
    );
  });
});
