import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageType, topologyFromPlatform } from '@nimbus/core';
import { platform } from '@nimbus/example-crm-erp';
import { createMemoryMessageStore, type NimBusMessageStore, ResolutionStatus } from '@nimbus/message-store';
import { createSqlMessageStore } from '@nimbus/message-store-sql';
import { createSqlTransport } from '@nimbus/transport-sql';
import { DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD } from '@nimbus/webapp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../src/exit-codes.js';
import { recordPlatformModule } from '../src/operator/recorded-platform.js';
import { type CliIo, runCli } from '../src/program.js';
import { startTestWebApp } from './support/test-web-app.js';

// Every exit code of docs/cli.md, from the commands an operator runs: 0 done, 1 failed/refused, 2 usage (a
// payload that fails its schema, locally or through a WebApp), 3 schema out of date, 4 not found.

function capture(): CliIo & { lines: string[]; errors: string[] } {
  const lines: string[] = [];
  const errors: string[] = [];
  return { lines, errors, out: (line) => lines.push(line), err: (text) => errors.push(text) };
}
const argv = (...args: string[]) => ['node', 'nimbus', ...args];

const VALID = { customerId: 'C-7', name: 'Ada', email: 'ada@example.test', vatNumber: 'DK1', revision: 1 };

async function seed(
  store: NimBusMessageStore,
  eventId: string,
  status: ResolutionStatus,
  at: Date,
  sessionId = 'C-7',
) {
  const base = { enqueuedTimeUtc: at, eventTypeId: 'CustomerUpserted', from: 'Crm', to: 'Erp' };
  await store.storeMessage({
    ...base,
    eventId,
    messageId: `${eventId}-req`,
    endpointId: 'Erp',
    sessionId,
    messageType: MessageType.EventRequest,
    messageContent: {
      eventContent: {
        eventTypeId: 'CustomerUpserted',
        eventJson: JSON.stringify({ ...VALID, customerId: sessionId }),
      },
      errorContent: null,
    },
  });
  await store.writeStatus({
    key: { endpointId: 'Erp', eventId, sessionId },
    status,
    content: { ...base, messageType: MessageType.ErrorResponse, lastMessageId: `${eventId}-err` },
  });
}

async function withEnv(env: Record<string, string>, run: () => Promise<number>) {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    return await run();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/** Runs with `name` unset (a developer's shell may have it). */
async function withoutEnv<T>(name: string, run: () => Promise<T>): Promise<T> {
  const saved = process.env[name];
  delete process.env[name];
  try {
    return await run();
  } finally {
    if (saved !== undefined) process.env[name] = saved;
  }
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('exit codes on the local SQLite stack', () => {
  let dataDir = '';
  const run = async (...args: string[]) => {
    const io = capture();
    const code = await runCli(argv(...args, '--data-dir', dataDir), io);
    return { code, out: io.lines.join('\n'), err: io.errors.join('') };
  };
  const activeAtErp = async () => {
    const transport = await createSqlTransport({ dialect: 'sqlite', path: join(dataDir, 'transport.db') });
    try {
      return (await transport.counts('Erp')).active;
    } finally {
      await transport.close();
    }
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'nimbus-exit-codes-'));
    dirs.push(dataDir);
    expect((await run('store', 'migrate')).code).toBe(0);
    const store = await createSqlMessageStore({
      dialect: 'sqlite',
      // Store and transport share one SQLite file by default (co-located tracking).
      filename: join(dataDir, 'transport.db'),
      env: {},
      retentionSweep: false,
    });
    const t0 = Date.now() - 60_000;
    await seed(store, 'ev-failed', ResolutionStatus.Failed, new Date(t0), 'C-1');
    await seed(store, 'ev-done', ResolutionStatus.Completed, new Date(t0 + 1), 'C-2');
    // A dead-lettered event with later events of its session parked behind it, and one that went on.
    await seed(store, 'ev-dead', ResolutionStatus.DeadLettered, new Date(t0 + 2));
    await seed(store, 'ev-parked-1', ResolutionStatus.Deferred, new Date(t0 + 3));
    await seed(store, 'ev-parked-2', ResolutionStatus.Deferred, new Date(t0 + 4));
    await store.close();
    const transport = await createSqlTransport({ dialect: 'sqlite', path: join(dataDir, 'transport.db') });
    await transport.applyTopology(topologyFromPlatform(platform));
    await transport.close();
  }, 60_000);

  it('0: done', async () => {
    const listed = await run('events', 'list', '--endpoint', 'Erp');
    expect(listed.code).toBe(ExitCode.Ok);
    expect(listed.out).toContain('ev-failed');
    // A known endpoint with nothing matching is not an error.
    expect((await run('events', 'list', '--endpoint', 'Crm')).code).toBe(ExitCode.Ok);
    expect((await run('dead-letters', 'list', 'Erp')).code).toBe(ExitCode.Ok);
    expect((await run('--help')).code).toBe(ExitCode.Ok);
    expect((await run('events', 'resubmit', '--help')).code).toBe(ExitCode.Ok);
    expect((await run('--version')).code).toBe(ExitCode.Ok);
  });

  it('1: the database is unreachable', async () => {
    const unreachable = await withEnv({ NIMBUS_POSTGRES_URL: 'postgres://nimbus@127.0.0.1:1/nimbus' }, () =>
      run('events', 'list', '--endpoint', 'Erp', '--store', 'postgres', '--transport', 'postgres').then(
        (result) => {
          expect(result.err).toContain('Could not open the postgres message store');
          return result.code;
        },
      ),
    );
    expect(unreachable).toBe(ExitCode.Failed);
  });

  it('1: an action refused (a Completed event), nothing sent', async () => {
    const refused = await run('events', 'resubmit', 'Erp', 'ev-done');
    expect(refused.code).toBe(ExitCode.Failed);
    expect(refused.err).toContain('it is Completed');
    expect(await activeAtErp()).toBe(0);
  });

  it('2: bad usage, and an edited payload that fails its schema (checked locally, nothing sent)', async () => {
    expect((await run('events', 'list', '--no-such-option')).code).toBe(ExitCode.Usage);
    expect((await run('events', 'list', '--status', 'Broken')).code).toBe(ExitCode.Usage);
    expect((await run('no-such-command')).code).toBe(ExitCode.Usage);
    // A group without its subcommand prints its help; a missing argument.
    expect((await run('store')).code).toBe(ExitCode.Usage);
    expect((await run('events', 'show', 'Erp')).code).toBe(ExitCode.Usage);
    const platformMissing = await run(
      'events',
      'resubmit',
      'Erp',
      'ev-failed',
      '--set',
      'vatNumber=DK2',
      '--platform',
      './no/such/module.js',
    );
    expect(platformMissing.code).toBe(ExitCode.Usage);
    expect(platformMissing.err).toContain("Could not load platform module './no/such/module.js'");
    const noUrl = await withoutEnv('NIMBUS_POSTGRES_URL', () =>
      run('events', 'list', '--endpoint', 'Erp', '--store', 'postgres', '--transport', 'postgres'),
    );
    expect(noUrl.code).toBe(ExitCode.Usage);
    expect(noUrl.err).toContain('NIMBUS_POSTGRES_URL is not set');
    // With --platform given …
    const given = await run(
      'events',
      'resubmit',
      'Erp',
      'ev-failed',
      '--set',
      'vatNumber=123',
      '--platform',
      '@nimbus/example-crm-erp',
    );
    expect(given.code).toBe(ExitCode.Usage);
    expect(given.err).toContain("does not match event type 'CustomerUpserted'");
    expect(given.err).toContain('vatNumber');
    expect(await activeAtErp()).toBe(0);
    // … and with the platform `nimbus dev` recorded in the data dir (the README's command, no --platform).
    recordPlatformModule(dataDir, '@nimbus/example-crm-erp');
    const recorded = await run('events', 'resubmit', 'Erp', 'ev-failed', '--set', 'vatNumber=123');
    expect(recorded.code).toBe(ExitCode.Usage);
    expect(recorded.err).toContain('Nothing was sent');
    expect(await activeAtErp()).toBe(0);
    // A valid edit goes through.
    expect((await run('events', 'resubmit', 'Erp', 'ev-failed', '--set', 'vatNumber=DK2')).code).toBe(0);
    expect(await activeAtErp()).toBe(1);
  });

  it('3: a store schema with unapplied migrations', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'nimbus-exit-codes-fresh-'));
    dirs.push(fresh);
    const io = capture();
    expect(await runCli(argv('store', 'verify', '--data-dir', fresh), io)).toBe(ExitCode.SchemaOutOfDate);
    // A service refuses to start on it (VerifyOnly is the default of `nimbus resolver` and `nimbus webapp`).
    const service = capture();
    expect(await runCli(argv('resolver', '--data-dir', fresh), service)).toBe(ExitCode.SchemaOutOfDate);
    expect(service.errors.join('')).toMatch(/unapplied migration/);
  });

  it('4: an event, endpoint, input or event type that does not exist', async () => {
    const endpoint = await run('events', 'list', '--endpoint', 'Nope');
    expect(endpoint.code).toBe(ExitCode.NotFound);
    expect(endpoint.err).toContain("No endpoint 'Nope'");
    const input = await run('dead-letters', 'list', 'Nope');
    expect(input.code).toBe(ExitCode.NotFound);
    expect(input.err).toContain("No input 'Nope'");
    expect((await run('events', 'resubmit', 'Erp', 'ev-missing')).code).toBe(ExitCode.NotFound);
    expect((await run('events', 'show', 'Erp', 'ev-missing')).code).toBe(ExitCode.NotFound);
    const eventType = await run(
      'publish',
      'NoSuchType',
      '--platform',
      '@nimbus/example-crm-erp',
      '--endpoint',
      'Crm',
      '--payload',
      '{}',
    );
    expect(eventType.code).toBe(ExitCode.NotFound);
    expect(eventType.err).toContain("Event type 'NoSuchType' is not part of the platform");
  });

  it("tells the session's state as it is: parked events are not 'went on without it'", async () => {
    const refused = await run('events', 'resubmit', 'Erp', 'ev-dead');
    expect(refused.code).toBe(ExitCode.Failed);
    expect(refused.err).toContain('2 later events still parked (Deferred) behind it');
    expect(refused.err).not.toContain('went on without it');
  });
});

describe('exit codes through a remote WebApp', () => {
  it('2 for a payload the WebApp refuses as invalid, 4 for an unknown event, 1 for a refused action', async () => {
    const store = createMemoryMessageStore();
    const app = await startTestWebApp(store);
    const { transport, url } = app;
    try {
      await seed(store, 'ev-remote', ResolutionStatus.Failed, new Date(), 'C-9');
      await seed(store, 'ev-remote-done', ResolutionStatus.Completed, new Date(), 'C-10');
      const created = capture();
      const session = {
        NIMBUS_WEBAPP_URL: url,
        NIMBUS_WEBAPP_EMAIL: DEFAULT_ADMIN_EMAIL,
        NIMBUS_WEBAPP_PASSWORD: DEFAULT_ADMIN_PASSWORD,
      };
      expect(await withEnv(session, () => runCli(argv('tokens', 'create', 'ops', '--json'), created))).toBe(
        0,
      );
      const remote = { NIMBUS_WEBAPP_URL: url, NIMBUS_API_TOKEN: JSON.parse(created.lines[0]!).token };
      const run = (...args: string[]) => withEnv(remote, () => runCli(argv(...args), capture()));

      expect(await run('events', 'resubmit', 'Erp', 'ev-remote', '--set', 'vatNumber=123')).toBe(
        ExitCode.Usage,
      );
      expect((await transport.counts('Erp')).active).toBe(0);
      expect(await run('events', 'resubmit', 'Erp', 'ev-nope')).toBe(ExitCode.NotFound);
      expect(await run('events', 'resubmit', 'Erp', 'ev-remote-done')).toBe(ExitCode.Failed);
      expect(await run('events', 'resubmit', 'Erp', 'ev-remote', '--set', 'vatNumber=DK3')).toBe(0);
    } finally {
      await app.close();
    }
  }, 60_000);
});
