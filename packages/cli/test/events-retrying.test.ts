import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageType, topologyFromPlatform } from '@nimbus/core';
import { platform } from '@nimbus/example-crm-erp';
import { type NimBusMessageStore, ResolutionStatus, type RetryState } from '@nimbus/message-store';
import { createSqlMessageStore } from '@nimbus/message-store-sql';
import { createSqlTransport } from '@nimbus/transport-sql';
import { DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD } from '@nimbus/webapp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertCliBuilt, cleanEnv, runCli } from './support/cli-process.js';
import { startTestWebApp } from './support/test-web-app.js';

// A Failed row the retry policy will run again (`retry` set) is Retrying in every CLI output about it, as the
// WebApp shows it: the list's status column, `--json` (`state`, `retry`), `events show`, locally and remotely.

const NEXT = new Date('2026-12-02T08:00:00.000Z');
const RETRY: RetryState = { attempt: 2, maxAttempts: 5, nextAttemptAt: NEXT };

async function seed(store: NimBusMessageStore, eventId: string, retry: RetryState | null) {
  const base = { enqueuedTimeUtc: new Date(), eventTypeId: 'CustomerUpserted', from: 'Crm', to: 'Erp' };
  const errorContent = {
    errorText: 'ERP throttled (429)',
    errorType: 'ErpThrottledError',
    exceptionStackTrace: null,
    exceptionSource: null,
  };
  await store.storeMessage({
    ...base,
    eventId,
    messageId: `${eventId}-err`,
    endpointId: 'Erp',
    sessionId: eventId,
    messageType: MessageType.ErrorResponse,
    messageContent: { eventContent: { eventTypeId: 'CustomerUpserted', eventJson: '{}' }, errorContent },
  });
  await store.writeStatus({
    key: { endpointId: 'Erp', eventId, sessionId: eventId },
    status: ResolutionStatus.Failed,
    content: {
      ...base,
      messageType: MessageType.ErrorResponse,
      lastMessageId: `${eventId}-err`,
      retry,
      messageContent: { eventContent: null, errorContent },
    },
  });
}

interface JsonRow {
  readonly eventId: string;
  readonly state: string;
  readonly retry: { attempt: number; maxAttempts: number; nextAttemptAt: string } | null;
}

function expectRetryingShown(list: string, json: JsonRow[], show: string) {
  const retrying = list.split('\n').find((line) => line.includes('ev-retrying'));
  expect(retrying).toContain(`Retrying (attempt 2/5, next at ${NEXT.toISOString()})`);
  expect(retrying).not.toContain('Failed');
  expect(list.split('\n').find((line) => line.includes('ev-failed'))).toContain('Failed');
  const byId = new Map(json.map((row) => [row.eventId, row]));
  expect(byId.get('ev-retrying')).toMatchObject({
    state: 'Retrying',
    retry: { attempt: 2, maxAttempts: 5, nextAttemptAt: NEXT.toISOString() },
  });
  expect(byId.get('ev-failed')).toMatchObject({ state: 'Failed', retry: null });
  expect(show).toContain('ev-retrying on Erp: Retrying (attempt 2/5');
  expect(show).not.toContain(': Failed');
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('nimbus events: a retrying failure is Retrying, not Failed', () => {
  let dataDir = '';
  const env = cleanEnv();

  beforeAll(async () => {
    assertCliBuilt();
    dataDir = mkdtempSync(join(tmpdir(), 'nimbus-events-retrying-'));
    dirs.push(dataDir);
    expect((await runCli(['store', 'migrate', '--data-dir', dataDir], env)).code).toBe(0);
    const transport = await createSqlTransport({ dialect: 'sqlite', path: join(dataDir, 'transport.db') });
    await transport.applyTopology(topologyFromPlatform(platform));
    await transport.close();
    const store = await createSqlMessageStore({
      dialect: 'sqlite',
      filename: join(dataDir, 'transport.db'),
      env: {},
      retentionSweep: false,
    });
    await seed(store, 'ev-failed', null);
    await seed(store, 'ev-retrying', RETRY);
    await store.close();
  }, 60_000);

  it('on the local SQLite store (the compiled CLI)', async () => {
    const at = ['--data-dir', dataDir];
    const list = await runCli(['events', 'list', '--endpoint', 'Erp', ...at], env);
    const json = await runCli(['events', 'list', '--endpoint', 'Erp', '--json', ...at], env);
    const show = await runCli(['events', 'show', 'Erp', 'ev-retrying', ...at], env);
    const showJson = await runCli(['events', 'show', 'Erp', 'ev-retrying', '--json', ...at], env);
    for (const done of [list, json, show, showJson]) expect(done.code, done.stderr).toBe(0);
    expectRetryingShown(list.stdout, JSON.parse(json.stdout) as JsonRow[], show.stdout);
    expect((JSON.parse(showJson.stdout) as { event: JsonRow }).event.state).toBe('Retrying');
  }, 60_000);

  it('through a remote WebApp over the same store', async () => {
    const store = await createSqlMessageStore({
      dialect: 'sqlite',
      filename: join(dataDir, 'transport.db'),
      env: {},
      retentionSweep: false,
    });
    const app = await startTestWebApp(store);
    try {
      const { url } = app;
      const created = await runCli(
        ['tokens', 'create', 'ops', '--json'],
        cleanEnv({
          NIMBUS_WEBAPP_URL: url,
          NIMBUS_WEBAPP_EMAIL: DEFAULT_ADMIN_EMAIL,
          NIMBUS_WEBAPP_PASSWORD: DEFAULT_ADMIN_PASSWORD,
        }),
      );
      expect(created.code, created.stderr).toBe(0);
      const remote = cleanEnv({
        NIMBUS_WEBAPP_URL: url,
        NIMBUS_API_TOKEN: (JSON.parse(created.stdout) as { token: string }).token,
      });
      const list = await runCli(['events', 'list', '--endpoint', 'Erp'], remote);
      const json = await runCli(['events', 'list', '--endpoint', 'Erp', '--json'], remote);
      const show = await runCli(['events', 'show', 'Erp', 'ev-retrying'], remote);
      for (const done of [list, json, show]) expect(done.code, done.stderr).toBe(0);
      expectRetryingShown(list.stdout, JSON.parse(json.stdout) as JsonRow[], show.stdout);
    } finally {
      await app.close();
      await store.close();
    }
  }, 60_000);
});
