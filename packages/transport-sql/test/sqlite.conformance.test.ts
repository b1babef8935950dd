import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeTransportConformance } from '@nimbus/core/conformance';
import Database from 'better-sqlite3';
import { createSqlTransport } from '../src/index.js';

const options = { lockDurationMs: 1_200, maxDeliveryCount: 3 };

describeTransportConformance('sql-sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'nimbus-sql-conformance-'));
  const path = join(dir, 'transport.db');
  const transport = await createSqlTransport({ dialect: 'sqlite', path }, options);
  return {
    transport,
    async corruptStoredHeaders(input, messageId, rawHeaders) {
      const db = new Database(path);
      try {
        db.prepare(
          'UPDATE "nimbus_transport_messages" SET headers = ? WHERE input = ? AND message_id = ?',
        ).run(rawHeaders, input, messageId);
      } finally {
        db.close();
      }
    },
    openConsumer: ({ maxBatchBytes }) =>
      createSqlTransport({ dialect: 'sqlite', path }, { ...options, maxBatchBytes }),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
});
