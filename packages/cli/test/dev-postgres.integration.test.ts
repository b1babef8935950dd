import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createTemporaryDatabase,
  shouldRunPostgresSuite,
  type TemporaryDatabase,
} from '@nimbus/testing/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertCliBuilt, CliDaemon, cleanEnv, eventually, runCli } from './support/cli-process.js';
import { SEEDED_ADMIN_ENV } from './support/seeded-admin.js';

const runPg = await shouldRunPostgresSuite('nimbus dev on PostgreSQL');

interface BlockedSession {
  sessionId: string;
  blockingEventId: string;
  deferredCount: number;
}

describe.runIf(runPg)('nimbus dev with store and transport on PostgreSQL (compiled bin)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'nimbus-dev-pg-'));
  let database: TemporaryDatabase;
  let env: NodeJS.ProcessEnv;
  let dev: CliDaemon;
  let baseUrl: string;
  let cookie = '';

  beforeAll(async () => {
    assertCliBuilt();
    database = await createTemporaryDatabase('nimbus_cli_dev');
    env = cleanEnv({
      NIMBUS_STORE: 'postgres',
      NIMBUS_TRANSPORT: 'postgres',
      NIMBUS_POSTGRES_URL: database.url,
      ...SEEDED_ADMIN_ENV,
    });
    dev = new CliDaemon(['dev', '--data-dir', dataDir, '--port', '0', '--traffic-interval', '60000'], env);
    baseUrl = (await dev.waitFor(/NimBus dev ready at (http:\/\/\S+)/, 30_000))[1] as string;
    const login = await fetch(`${baseUrl}/account/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@local', password: 'Local!Admin123' }),
    });
    expect(login.status).toBe(200);
    cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0] ?? '')
      .join('; ');
  }, 45_000);

  afterAll(async () => {
    await dev?.stop();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const api = async <T>(path: string): Promise<T> => {
    const response = await fetch(`${baseUrl}${path}`, { headers: { cookie } });
    if (!response.ok) throw new Error(`${path}: HTTP ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };

  it('says where it runs and keeps nothing in SQLite files', () => {
    expect(dev.stdout).toContain('NimBus dev starting (store: postgres, transport: postgres)');
  });

  it('blocks the sample session, and a resubmit from another process completes the parked updates in order', async () => {
    const blocked = await eventually(
      async () => {
        const sessions = await api<BlockedSession[]>('/api/endpoints/Erp/blocked-sessions');
        const session = sessions.find((s) => s.sessionId === 'C-2001');
        return session && session.deferredCount === 2 ? session : undefined;
      },
      25_000,
      'the blocked session C-2001 with two parked updates',
    );
    const resubmit = await runCli(
      ['events', 'resubmit', 'Erp', blocked.blockingEventId, '--set', 'vatNumber=DK12345678', '--json'],
      env,
    );
    expect(resubmit.stderr).toBe('');
    expect(resubmit.code).toBe(0);
    await eventually(
      async () => {
        const page = await api<{ events: { status: string }[] }>(
          '/api/endpoints/Erp/events?sessionId=C-2001',
        );
        return page.events.length === 3 && page.events.every((e) => e.status === 'Completed')
          ? true
          : undefined;
      },
      25_000,
      'all three C-2001 updates Completed',
    );
    const applied = [...dev.stdout.matchAll(/Erp applied customer C-2001 revision (\d+)/g)].map((m) => m[1]);
    expect(applied).toEqual(['1', '2', '3']);
  }, 60_000);
});
