import { Header, MessageType, silentLogger, type TransportMessage, uuidv7 } from '@nimbus/core';
import { createSqlMessageStore } from '@nimbus/message-store-sql';
import { shouldRunPostgresSuite } from '@nimbus/testing/postgres';
import { type OwnPostgresCluster, startOwnPostgresCluster } from '@nimbus/testing/postgres-cluster';
import { createSqlTransport } from '@nimbus/transport-sql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const topology = {
  endpoints: ['Crm', 'Erp'],
  routes: [{ source: 'Crm', eventTypeId: 'CustomerChanged', target: 'Erp' }],
};
const event = (sessionId: string): TransportMessage => ({
  messageId: uuidv7(),
  sessionId,
  correlationId: `corr-${sessionId}`,
  headers: {
    [Header.To]: 'CustomerChanged',
    [Header.EventTypeId]: 'CustomerChanged',
    [Header.MessageType]: MessageType.EventRequest,
  },
  body: '{}',
});

describe.runIf(await shouldRunPostgresSuite('readiness during an outage (own cluster)'))(
  'checkReadiness of the SQL transport and the SQL store during a PostgreSQL outage',
  () => {
    let cluster: OwnPostgresCluster;
    beforeAll(async () => {
      cluster = await startOwnPostgresCluster({ port: 15530 });
    }, 60_000);
    afterAll(async () => {
      await cluster?.destroy();
    });

    it('says not ready and why while the database is down, ready again after, and the transport works on', async () => {
      const transport = await createSqlTransport(
        { dialect: 'postgres', connectionString: cluster.url },
        { logger: silentLogger, idleSessionSweepMs: 0 },
      );
      const store = await createSqlMessageStore({
        dialect: 'postgres',
        connectionString: cluster.url,
        retentionSweep: false,
        logger: silentLogger,
        env: {},
      });
      try {
        await transport.applyTopology(topology);
        expect(await transport.checkReadiness()).toEqual({ ready: true });
        expect(await store.checkReadiness()).toEqual({ ready: true });

        await cluster.stop();
        const transportDown = await transport.checkReadiness();
        const storeDown = await store.checkReadiness();
        expect(transportDown.ready).toBe(false);
        expect(transportDown.reason).toMatch(/^SQL transport \(postgres\): (connection|unavailable)/);
        expect(storeDown.ready).toBe(false);
        expect(storeDown.reason).toMatch(/^PostgreSQL store: .*ECONNREFUSED/);
        const publishDown = await transport
          .publish([{ source: 'Crm', messages: [event('s-1')] }])
          .catch((error: unknown) => error);
        expect(publishDown).toMatchObject({ isRetryable: true });

        await cluster.start();
        expect(await transport.checkReadiness()).toEqual({ ready: true });
        expect(await store.checkReadiness()).toEqual({ ready: true });
        await transport.publish([{ source: 'Crm', messages: [event('s-1')] }]);
        expect((await transport.counts('Erp')).active).toBe(1);
      } finally {
        await store.close();
        await transport.close();
      }
    }, 60_000);
  },
);
