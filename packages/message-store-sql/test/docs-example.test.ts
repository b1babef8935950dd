import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ResolutionStatus } from '@nimbus/message-store';
import { afterAll, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'nimbus-sql-docs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('docs/storage-sql.md example runs', async () => {
  const filename = join(dir, 'store.db');
  /* jscpd:ignore-start */ // the docs page's example, kept whole as a reader copies it
  // --- example start ---
  const { MessageType } = await import('@nimbus/core');
  const { createSqlMessageStore, migrateSqlMessageStore } = await import('@nimbus/message-store-sql');

  // Deployment step (what `nimbus store migrate` does): apply pending migrations, printing progress.
  await migrateSqlMessageStore({
    dialect: 'sqlite',
    filename,
    onProgress: (p) => console.log(`${p.step} ${p.migration} (${p.index}/${p.total})`),
  });

  // Application start: VerifyOnly refuses to run against a schema that is not up to date.
  const store = await createSqlMessageStore({
    dialect: 'sqlite', // or 'postgres' with NIMBUS_POSTGRES_URL set
    filename, // default .nimbus/store.db
    migrationMode: 'VerifyOnly',
    retention: { unresolvedRetentionDays: 180 },
    retentionSweep: { intervalMs: 10 * 60_000 },
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
    // A late copy of the request arrives after its outcome: the stale-write guard refuses it.
    const written = await store.writeStatus({
      key: { endpointId: 'billing', eventId: 'order-42', sessionId: 'customer-7' },
      status: ResolutionStatus.Pending,
      content: request,
    });
    const row = await store.getEventById({ endpointId: 'billing', id: 'order-42_customer-7' });
    // --- example end ---
    /* jscpd:ignore-end */
    expect(written).toBe(false);
    expect(row?.resolutionStatus).toBe('Completed');
    expect(store.providerName).toBe('SQLite');
  } finally {
    await store.close();
  }
});
