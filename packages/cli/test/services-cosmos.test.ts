import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageType } from '@nimbus/core';
import { createCosmosMessageStore } from '@nimbus/message-store-cosmos';
import { type LocalCosmosServer, startLocalCosmosServer } from '@nimbus/message-store-cosmos/local-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertCliBuilt, CliDaemon, cleanEnv, runCli } from './support/cli-process.js';
import { signInChoosingPassword } from './support/seeded-admin.js';

/**
 * `nimbus resolver` and `nimbus webapp` on `--store cosmos` as separate processes, against a Cosmos
 * account given by NIMBUS_COSMOS_CONNECTION_STRING (the local server, trusted via NODE_EXTRA_CA_CERTS).
 */
describe('nimbus resolver / webapp --store cosmos (separate processes, connection string)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'nimbus-services-cosmos-'));
  let cosmos: LocalCosmosServer;
  let env: NodeJS.ProcessEnv;
  const daemons: CliDaemon[] = [];

  beforeAll(async () => {
    assertCliBuilt();
    cosmos = await startLocalCosmosServer();
    const caFile = join(dataDir, 'local-cosmos-ca.pem');
    writeFileSync(caFile, cosmos.ca);
    env = cleanEnv({
      NIMBUS_COSMOS_CONNECTION_STRING: cosmos.connectionString,
      NIMBUS_COSMOS_DATABASE: 'services-test',
      NODE_EXTRA_CA_CERTS: caFile,
    });
  });

  afterAll(async () => {
    for (const d of daemons) await d.stop();
    await cosmos?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses to start without a configured account, naming the variables', async () => {
    const result = await runCli(['webapp', '--store', 'cosmos', '--data-dir', dataDir, '--port', '0']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/NIMBUS_COSMOS_ACCOUNT_ENDPOINT.*NIMBUS_COSMOS_CONNECTION_STRING/);
  });

  it('the WebApp process shows what another process wrote to the Cosmos store, and the Resolver starts on it', async () => {
    const migrate = await runCli(['store', 'migrate', '--store', 'cosmos', '--data-dir', dataDir], env);
    expect(migrate.code).toBe(0);
    expect(migrate.stdout).toContain('store: Cosmos DB creates its database and containers when it opens');
    expect(migrate.stdout).toMatch(/transport: applied \d+ migration/);
    const resolver = new CliDaemon(['resolver', '--store', 'cosmos', '--data-dir', dataDir], env);
    daemons.push(resolver);
    await resolver.waitFor(/NimBus resolver ready/, 30_000);
    const webapp = new CliDaemon(['webapp', '--store', 'cosmos', '--data-dir', dataDir, '--port', '0'], env);
    daemons.push(webapp);
    const url = (await webapp.waitFor(/NimBus webapp ready at (http:\/\/\S+)/, 30_000))[1] as string;

    const store = await createCosmosMessageStore({
      env: {
        NIMBUS_COSMOS_CONNECTION_STRING: cosmos.connectionString,
        NIMBUS_COSMOS_DATABASE: 'services-test',
      },
      agent: cosmos.agent,
    });
    try {
      await store.storeMessage({
        eventId: 'ev-cosmos-1',
        messageId: 'err-1',
        endpointId: 'Erp',
        sessionId: 'C-1',
        enqueuedTimeUtc: new Date(),
        messageType: MessageType.ErrorResponse,
      });
    } finally {
      await store.close();
    }

    const password = webapp.stdout.match(/Sign in as admin@local with password (\S+) \(generated/)?.[1];
    expect(password).toBeDefined();
    // A generated password is replaced at the first sign-in.
    const cookie = await signInChoosingPassword(url as string, { email: 'admin@local', password: password! });
    const page = await fetch(`${url}/api/messages?eventId=ev-cosmos-1`, { headers: { cookie } });
    expect(page.status).toBe(200);
    const body = (await page.json()) as { messages: { eventId: string; messageId: string }[] };
    expect(body.messages).toEqual([expect.objectContaining({ eventId: 'ev-cosmos-1', messageId: 'err-1' })]);
    expect(await webapp.stop()).toBe(0);
    expect(await resolver.stop()).toBe(0);
  }, 60_000);
});
