import { MessageType, silentLogger, topologyFromPlatform } from '@nimbus/core';
import { platform } from '@nimbus/example-crm-erp';
import { createMemoryMessageStore, ResolutionStatus } from '@nimbus/message-store';
import { createMemoryTransport } from '@nimbus/transport-memory';
import {
  createMemoryIdentityStore,
  createWebApp,
  DEFAULT_ADMIN_EMAIL,
  DEFAULT_ADMIN_PASSWORD,
  type WebApp,
} from '@nimbus/webapp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../src/exit-codes.js';
import { runCli } from '../src/program.js';
import { argv, capture, withEnv } from './support/in-process-cli.js';
import { SEEDED_ADMIN_ENV } from './support/seeded-admin.js';

describe('nimbus tokens and nimbus events against a remote WebApp', () => {
  let app: WebApp;
  let url: string;
  const transport = createMemoryTransport();
  const store = createMemoryMessageStore();
  beforeAll(async () => {
    await transport.applyTopology(topologyFromPlatform(platform));
    app = await createWebApp({
      store,
      identityStore: createMemoryIdentityStore(),
      transport,
      platform,
      logger: silentLogger,
      env: SEEDED_ADMIN_ENV,
      uiDistDir: '/nonexistent',
    });
    url = await app.listen();
    const base = { enqueuedTimeUtc: new Date(), eventTypeId: 'CustomerUpserted', from: 'Crm', to: 'Erp' };
    await store.storeMessage({
      ...base,
      eventId: 'ev-remote',
      messageId: 'req-1',
      endpointId: 'Erp',
      sessionId: 'C-9',
      messageType: MessageType.EventRequest,
      messageContent: {
        eventContent: { eventTypeId: 'CustomerUpserted', eventJson: '{"customerId":"C-9","name":"Ada"}' },
        errorContent: null,
      },
    });
    await store.writeStatus({
      key: { endpointId: 'Erp', eventId: 'ev-remote', sessionId: 'C-9' },
      status: ResolutionStatus.Failed,
      content: { ...base, messageType: MessageType.ErrorResponse, lastMessageId: 'err-1' },
    });
  });
  afterAll(async () => {
    await app?.close();
    await transport.close();
  });

  it('creates a token from a signed-in session, then lists and skips an event with it (audited as the token)', async () => {
    const session = {
      NIMBUS_WEBAPP_URL: url,
      NIMBUS_WEBAPP_EMAIL: DEFAULT_ADMIN_EMAIL,
      NIMBUS_WEBAPP_PASSWORD: DEFAULT_ADMIN_PASSWORD,
    };
    const created = capture();
    expect(
      await withEnv(session, () =>
        runCli(argv('tokens', 'create', 'ci', '--max-role', 'Contributor', '--json'), created),
      ),
    ).toBe(0);
    const token = JSON.parse(created.lines[0]!).token as string;
    expect(token).toMatch(/^nimbus_pat_/);

    const remote = { NIMBUS_WEBAPP_URL: url, NIMBUS_API_TOKEN: token };
    const list = capture();
    expect(await withEnv(remote, () => runCli(argv('events', 'list', '--status', 'Failed'), list))).toBe(0);
    expect(list.lines.join('\n')).toContain('ev-remote');
    const skip = capture();
    expect(
      await withEnv(remote, () =>
        runCli(argv('events', 'skip', 'Erp', 'ev-remote', '--comment', 'from CI'), skip),
      ),
    ).toBe(0);
    expect(skip.lines[0]).toContain('skip of event ev-remote on Erp');
    const audits = await store.getMessageAudits('ev-remote');
    expect(audits.map((a) => [a.auditType, a.auditorName])).toEqual([['Skip', 'Administrator (token ci)']]);

    const revoked = capture();
    const id = JSON.parse(created.lines[0]!).id as string;
    expect(await withEnv(session, () => runCli(argv('tokens', 'revoke', id), revoked))).toBe(0);
    const refused = capture();
    expect(await withEnv(remote, () => runCli(argv('events', 'list'), refused))).not.toBe(0);
    expect(refused.errors.join('')).toContain('401');
  });

  it('asks for NIMBUS_API_TOKEN when NIMBUS_WEBAPP_URL is set', async () => {
    const io = capture();
    expect(
      await withEnv({ NIMBUS_WEBAPP_URL: url, NIMBUS_API_TOKEN: '' }, () =>
        runCli(argv('events', 'list'), io),
      ),
    ).toBe(ExitCode.Usage);
    expect(io.errors.join('')).toContain('NIMBUS_API_TOKEN');
  });
});
