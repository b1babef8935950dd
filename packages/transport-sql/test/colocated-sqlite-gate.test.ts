import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEnvelope, encodeEnvelope, MessageType, uuidv7 } from '@nimbus/core';
import type { ColocatedProjection } from '@nimbus/message-store';
import { createSqlColocatedProjection, createSqlMessageStore } from '@nimbus/message-store-sql';
import { afterEach, describe, expect, it } from 'vitest';
import { createSqlTransport } from '../src/index.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('co-located SQLite store and transport in one process', () => {
  it('a store write while a transport transaction is open across awaits waits its turn instead of failing busy', {
    timeout: 60_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nimbus-gate-'));
    dirs.push(dir);
    const filename = join(dir, 'bus.db');
    const store = await createSqlMessageStore({
      dialect: 'sqlite',
      filename,
      busyTimeoutMs: 300,
      retentionSweep: false,
      env: {},
    });
    const inner = createSqlColocatedProjection({ dialect: 'sqlite', filename, env: {} });
    let inTransaction!: () => void;
    const entered = new Promise<void>((resolve) => {
      inTransaction = resolve;
    });
    // The projection holds the publish transaction open across a timer, as any await on real I/O would.
    const projection: ColocatedProjection = {
      ...inner,
      plan: (message) => inner.plan(message),
      committed: (db, endpoints) => inner.committed(db, endpoints),
      async write(tx, plans) {
        const changed = await inner.write(tx, plans);
        inTransaction();
        await new Promise((resolve) => setTimeout(resolve, 200));
        return changed;
      },
    };
    const transport = await createSqlTransport(
      { dialect: 'sqlite', path: filename },
      { projection, busyTimeoutMs: 300 },
    );
    try {
      await transport.applyTopology({
        endpoints: ['Crm', 'Billing'],
        routes: [{ source: 'Crm', eventTypeId: 'Crm.CustomerChanged', target: 'Billing' }],
      });
      const event = createEnvelope({
        messageId: uuidv7(),
        to: 'Crm.CustomerChanged',
        sessionId: 'customer-1',
        correlationId: 'corr-1',
        messageType: MessageType.EventRequest,
        originatingFrom: 'Crm',
        content: {
          eventContent: { eventTypeId: 'Crm.CustomerChanged', eventJson: '{}' },
          errorContent: null,
        },
      });
      const publishing = transport.publish([{ source: 'Crm', messages: [encodeEnvelope(event)] }]);
      await entered;
      const settings = await store.getHeartbeatSettings();
      await store.setHeartbeatSettings({ ...settings, enabled: true, intervalSeconds: 60 });
      await publishing;
      expect((await store.getHeartbeatSettings()).enabled).toBe(true);
      expect(await store.downloadEndpointStateCount('Billing')).toMatchObject({ pendingCount: 1 });
    } finally {
      await transport.close();
      await store.close();
    }
  });
});
