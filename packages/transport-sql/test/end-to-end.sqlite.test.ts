import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryMessageStore } from '@nimbus/message-store';
import { describeResolverEndToEnd } from '@nimbus/resolver/e2e';
import { describeEngineEndToEnd, type EndToEndFixture } from '@nimbus/testing/e2e';
import { createSqlTransport } from '../src/index.js';

/** A SQL transport on a real SQLite file of its own; it runs on real time (the database clock). */
async function sqliteTransport(): Promise<EndToEndFixture> {
  const dir = mkdtempSync(join(tmpdir(), 'nimbus-sql-e2e-'));
  const transport = await createSqlTransport({ dialect: 'sqlite', path: join(dir, 'transport.db') });
  return { transport, clock: null, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
}

describeEngineEndToEnd('sql-sqlite', sqliteTransport);

describeResolverEndToEnd('memory store, sql-sqlite transport', {
  openStore: async () => createMemoryMessageStore({ env: {} }),
  openTransport: sqliteTransport,
});
