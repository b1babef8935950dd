import { readFileSync } from 'node:fs';
import { ResolutionStatus } from '@nimbus/message-store';
import { expect, it } from 'vitest';

const { startLocalCosmosServer } = await import('../src/local-server/index.js');
const local = await startLocalCosmosServer();
const env = {
  NIMBUS_COSMOS_CONNECTION_STRING: local.connectionString,
  NIMBUS_COSMOS_DATABASE: 'docs-example',
};

async function runExample() {
  /* jscpd:ignore-start */ // the docs page's example, kept whole as a reader copies it
  // --- example start ---
  const { MessageType } = await import('@nimbus/core');
  const { createCosmosMessageStore } = await import('@nimbus/message-store-cosmos');

  // NIMBUS_COSMOS_ACCOUNT_ENDPOINT (Entra sign-in) or NIMBUS_COSMOS_CONNECTION_STRING is read from `env`.
  const store = await createCosmosMessageStore({
    env, // default process.env
    retention: { unresolvedRetentionDays: 180 }, // -1 (default, unlimited) or 1-365
    agent: local.agent, // only for the local server's test certificate
    clientOptions: { connectionPolicy: { enableEndpointDiscovery: false } }, // local server only
  });
  try {
    const request = {
      enqueuedTimeUtc: new Date(),
      messageType: MessageType.EventRequest,
      lastMessageId: 'm-1',
    };
    await store.writeStatus({
      key: { endpointId: 'billing', eventId: 'order-42', sessionId: 'customer-7' },
      status: ResolutionStatus.Pending,
      content: request,
    });
    await store.writeStatus({
      key: { endpointId: 'billing', eventId: 'order-42', sessionId: 'customer-7' },
      status: ResolutionStatus.Completed,
      content: {
        ...request,
        messageType: MessageType.ResolutionResponse,
        lastMessageId: 'm-2',
      },
    });
    // A late copy of the request: the guard refuses it (false), the Completed row stands.
    const written = await store.writeStatus({
      key: { endpointId: 'billing', eventId: 'order-42', sessionId: 'customer-7' },
      status: ResolutionStatus.Pending,
      content: request,
    });
    const row = await store.getEventById({ endpointId: 'billing', id: 'order-42_customer-7' });
    // --- example end ---
    /* jscpd:ignore-end */
    return { written, row, store };
  } finally {
    await store.close();
  }
}

it('docs/storage-cosmos.md example runs against the local Cosmos server', async () => {
  try {
    const { written, row, store } = await runExample();
    expect(written).toBe(false);
    expect(row?.resolutionStatus).toBe('Completed');
    expect(store.databaseId).toBe('docs-example');
  } finally {
    await local.close();
  }
});

it('the docs page shows exactly the example this test runs', () => {
  const source = readFileSync(new URL(import.meta.url), 'utf8');
  const example = source
    .split('// --- example start ---\n')[1]!
    .split('    // --- example end ---')[0]!
    .split('\n')
    .map((line) => line.replace(/^ {2}/, ''))
    .join('\n')
    .trim();
  const page = readFileSync(new URL('../../../docs/storage-cosmos.md', import.meta.url), 'utf8');
  expect(page).toContain(example);
});
