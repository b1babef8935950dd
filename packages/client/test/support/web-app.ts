import { MessageType, silentLogger, topologyFromPlatform } from '@nimbus/core';
import { platform } from '@nimbus/example-crm-erp';
import { createMemoryMessageStore, ResolutionStatus } from '@nimbus/message-store';
import { createMemoryTransport } from '@nimbus/transport-memory';
import { createMemoryIdentityStore, createWebApp, DEFAULT_ADMIN_PASSWORD, type WebApp } from '@nimbus/webapp';

export interface RunningWebApp {
  readonly app: WebApp;
  readonly url: string;
  close(): Promise<void>;
}

/** A real WebApp listening on a free port, on in-memory stores, with one failed event on the Erp endpoint. */
export async function startWebApp(): Promise<RunningWebApp> {
  const transport = createMemoryTransport();
  await transport.applyTopology(topologyFromPlatform(platform));
  const store = createMemoryMessageStore();
  const app = await createWebApp({
    store,
    identityStore: createMemoryIdentityStore(),
    transport,
    platform,
    logger: silentLogger,
    // Seeded through the setting, so the admin is not asked to replace the password at the first sign-in.
    env: { NIMBUS_IDENTITY_ADMIN_PASSWORD: DEFAULT_ADMIN_PASSWORD },
    uiDistDir: '/nonexistent',
  });
  const url = await app.listen();
  const base = { enqueuedTimeUtc: new Date(), eventTypeId: 'CustomerUpserted', from: 'Crm', to: 'Erp' };
  await store.storeMessage({
    ...base,
    eventId: 'ev-client',
    messageId: 'req-1',
    endpointId: 'Erp',
    sessionId: 'C-1',
    messageType: MessageType.EventRequest,
    messageContent: {
      eventContent: { eventTypeId: 'CustomerUpserted', eventJson: '{"customerId":"C-1","name":"Ada"}' },
      errorContent: null,
    },
  });
  await store.writeStatus({
    key: { endpointId: 'Erp', eventId: 'ev-client', sessionId: 'C-1' },
    status: ResolutionStatus.Failed,
    content: { ...base, messageType: MessageType.ErrorResponse, lastMessageId: 'err-1' },
  });
  return {
    app,
    url,
    close: async () => {
      await app.close();
      await transport.close();
    },
  };
}
