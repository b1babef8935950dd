import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertCliBuilt, CliDaemon, eventually, runCli, runWithClosedStdout } from './support/cli-process.js';
import { signInChoosingPassword } from './support/seeded-admin.js';

interface BlockedSession {
  sessionId: string;
  blockingEventId: string;
  blockingStatus: string;
  deferredCount: number;
}

interface EventRow {
  eventId: string;
  status: string;
  sessionId: string;
}

describe('nimbus dev (compiled bin, SQLite under a temp data dir)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'nimbus-dev-e2e-'));
  let dev: CliDaemon;
  let baseUrl: string;
  let cookie: string;

  beforeAll(async () => {
    assertCliBuilt();
    dev = new CliDaemon(['dev', '--data-dir', dataDir, '--port', '0', '--traffic-interval', '60000']);
    baseUrl = (await dev.waitFor(/NimBus dev ready at (http:\/\/\S+)/, 30_000))[1] as string;
  }, 40_000);

  afterAll(async () => {
    await dev?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const api = async <T>(path: string): Promise<T> => {
    const response = await fetch(`${baseUrl}${path}`, { headers: { cookie } });
    if (!response.ok) throw new Error(`${path}: HTTP ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };

  it('prints the sign-in; the bootstrap admin signs in over HTTP and first chooses a new password', async () => {
    expect(dev.stdout).toContain('Sign in as admin@local with password Local!Admin123');
    const refused = await fetch(`${baseUrl}/api/endpoints`);
    expect(refused.status).toBe(401);
    const response = await fetch(`${baseUrl}/account/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@local', password: 'Local!Admin123' }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ mustChangePassword: true });
    const first = response.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    expect((await fetch(`${baseUrl}/api/endpoints`, { headers: { cookie: first } })).status).toBe(403);
    cookie = await signInChoosingPassword(
      baseUrl,
      { email: 'admin@local', password: 'Local!Admin123' },
      'Dev!Chosen-Passphrase-42',
    );
    expect(cookie).toContain('NimBus.Identity=');
  });

  it('an operator fixes the blocked sample session with `nimbus events resubmit` and the parked updates complete in order', async () => {
    const blocked = await eventually(
      async () => {
        const sessions = await api<BlockedSession[]>('/api/endpoints/Erp/blocked-sessions');
        const session = sessions.find((s) => s.sessionId === 'C-2001');
        return session && session.deferredCount === 2 ? session : undefined;
      },
      20_000,
      'the blocked session C-2001 with two parked updates',
    );
    expect(blocked.blockingStatus).toBe('Failed');
    const failed = await api<{ errorContent: { errorText: string } | null }>(
      `/api/endpoints/Erp/events/${blocked.blockingEventId}`,
    );
    expect(JSON.stringify(failed)).toContain('not a valid VAT number');
    // The terminal shows the failure too: which endpoint, which session, which event, and why.
    const line = await dev.waitFor(
      /^blocked: endpoint Erp, session C-2001, event (\S+) Failed: (.+)$/m,
      10_000,
    );
    expect(line[1]).toBe(blocked.blockingEventId);
    expect(line[2]).toContain('not a valid VAT number');
    expect(dev.stdout).not.toContain('Erp applied customer C-2001');

    const resubmit = await runCli([
      'events',
      'resubmit',
      'Erp',
      blocked.blockingEventId,
      '--data-dir',
      dataDir,
      '--set',
      'vatNumber=DK12345678',
      '--comment',
      'VAT number corrected',
      '--json',
    ]);
    expect(resubmit.stderr).toBe('');
    expect(resubmit.code).toBe(0);
    const outcome = JSON.parse(resubmit.stdout) as { action: string; auditor: string; sessionId: string };
    expect(outcome).toMatchObject({ action: 'resubmitWithChanges', sessionId: 'C-2001' });
    expect(outcome.auditor).toMatch(/^cli:/);

    const rows = await eventually(
      async () => {
        const page = await api<{ events: EventRow[] }>('/api/endpoints/Erp/events?sessionId=C-2001');
        return page.events.length === 3 && page.events.every((e) => e.status === 'Completed')
          ? page.events
          : undefined;
      },
      20_000,
      'all three C-2001 updates Completed',
    );
    expect(rows).toHaveLength(3);
    const applied = [...dev.stdout.matchAll(/Erp applied customer C-2001 revision (\d+)/g)].map((m) => m[1]);
    expect(applied).toEqual(['1', '2', '3']);

    const show = await runCli([
      'events',
      'show',
      'Erp',
      blocked.blockingEventId,
      '--data-dir',
      dataDir,
      '--json',
    ]);
    expect(show.code).toBe(0);
    const detail = JSON.parse(show.stdout) as {
      event: { resolutionStatus: string };
      audits: { auditorName: string; auditType: string; comment: string }[];
    };
    expect(detail.event.resolutionStatus).toBe('Completed');
    // `nimbus events show … | head`: the reader goes away before the output is written; no EPIPE trace.
    const piped = await runWithClosedStdout([
      'events',
      'show',
      'Erp',
      blocked.blockingEventId,
      '--data-dir',
      dataDir,
    ]);
    expect(piped.stderr).not.toMatch(/EPIPE|Error/);
    expect(piped.code).toBe(0);
    expect(detail.audits).toEqual([
      expect.objectContaining({
        auditType: 'ResubmitWithChanges',
        comment: 'VAT number corrected',
        auditorName: outcome.auditor,
      }),
    ]);
  }, 50_000);

  it('probes every sample endpoint and the Resolver with the heartbeat, and shows them On', async () => {
    await expect
      .poll(
        async () =>
          (await api<{ endpointId: string; status: string }[]>('/api/heartbeat/overview'))
            .map((row) => `${row.endpointId}:${row.status}`)
            .sort(),
        { timeout: 20_000, interval: 500 },
      )
      .toEqual(['Credit:On', 'Crm:On', 'Erp:On']);
    const services = await api<{ serviceId: string; status: string }[]>('/api/health/services');
    expect(services).toEqual([expect.objectContaining({ serviceId: 'Resolver', status: 'On' })]);
  }, 30_000);

  it('answers scripts with documented exit codes', async () => {
    const missing = await runCli(['events', 'show', 'Erp', 'no-such-event', '--data-dir', dataDir]);
    expect(missing.code).toBe(4);
    expect(missing.stderr).toContain("Event 'no-such-event' was not found on endpoint 'Erp'");
    const notResubmittable = await runCli(['events', 'skip', 'Erp', 'no-such-event', '--data-dir', dataDir]);
    expect(notResubmittable.code).toBe(4);
    expect((await runCli(['events'])).code).toBe(2);
    expect((await runCli(['events', 'list', '--status', 'Broken', '--data-dir', dataDir])).code).toBe(2);
    expect((await runCli(['--help'])).code).toBe(0);
  });

  it('stops cleanly on SIGTERM', async () => {
    expect(await dev.stop()).toBe(0);
    expect(dev.stdout).toContain('NimBus dev stopped.');
  });
});
