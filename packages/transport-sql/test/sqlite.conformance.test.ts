import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeTransportConformance } from '@nimbus/core/conformance';
import { createSqlTransport } from '../src/index.js';

describeTransportConformance('sql-sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'nimbus-sql-conformance-'));
  const transport = await createSqlTransport(
    { dialect: 'sqlite', path: join(dir, 'transport.db') },
    { lockDurationMs: 400, maxDeliveryCount: 3 },
  );
  return { transport, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
});
