import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { failureSignature } from '@nimbus/message-store';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveConnectionSettings } from '../src/config/resolve-connection-settings.js';
import { openDialect } from '../src/dialect/open-dialect.js';
import { ALL_MIGRATIONS } from '../src/migrations/all-migrations.js';
import { runMigrations } from '../src/migrations/migrator.js';
import { encodeDocument } from '../src/store/document-codec.js';

const dir = mkdtempSync(join(tmpdir(), 'nimbus-sql-signature-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('migration 0005_failure_signature', () => {
  it('backfills the signature of the Failed and DeadLettered rows written before it, and only theirs', async () => {
    const dialect = openDialect(
      resolveConnectionSettings({ dialect: 'sqlite', filename: join(dir, 'old.db'), env: {} }),
    );
    try {
      const before = ALL_MIGRATIONS.findIndex((m) => m.name === '0005_failure_signature');
      await runMigrations(dialect, { mode: 'AutoApply', migrations: ALL_MIGRATIONS.slice(0, before) });
      const row = (eventId: string, status: string, errorText: string | null) => ({
        endpoint_id: 'Erp',
        event_id: eventId,
        session_id: 's1',
        status,
        message_type: 'ErrorResponse',
        endpoint_role: 'Subscriber',
        updated_at: 1,
        enqueued_time: 1,
        deleted: 0,
        document_json: encodeDocument({
          messageContent: {
            eventContent: null,
            errorContent:
              errorText === null
                ? null
                : { errorText, errorType: 'Error', exceptionStackTrace: null, exceptionSource: null },
          },
          deadLetterReason: null,
          deadLetterErrorDescription: null,
        }),
      });
      // Written with the columns the table had before 0005 (no failure_signature yet).
      await dialect.db
        .insertInto('unresolved_events')
        .values([
          row('e1', 'Failed', "VAT 'DK1' rejected"),
          row('e2', 'DeadLettered', "VAT 'SE2' rejected"),
          row('e3', 'Completed', null),
        ])
        .execute();
      await runMigrations(dialect, { mode: 'AutoApply' });
      const stamped = await dialect.db
        .selectFrom('unresolved_events')
        .select(['event_id', 'failure_signature'])
        .orderBy('event_id')
        .execute();
      const vat = failureSignature('Error', "VAT 'x' rejected").key;
      expect(stamped).toEqual([
        { event_id: 'e1', failure_signature: vat },
        { event_id: 'e2', failure_signature: vat },
        { event_id: 'e3', failure_signature: null },
      ]);
    } finally {
      await dialect.destroy();
    }
  });
});
