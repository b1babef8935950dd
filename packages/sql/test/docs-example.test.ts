import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import {
  classifyDriverError,
  openKysely,
  runMigrations,
  type SqlExecutor,
  sqlExecutorOf,
  sqlName,
  tableJournal,
} from '../src/index.js';

const docs = readFileSync(fileURLToPath(new URL('../../../docs/sql.md', import.meta.url)), 'utf8');

it('docs/sql.md example: a 57P01 is retryable, reason unavailable', () => {
  // --- example start ---
  const outcome = classifyDriverError(Object.assign(new Error('terminating connection'), { code: '57P01' }));
  // { isRetryable: true, reason: 'unavailable', code: '57P01' }
  // --- example end ---
  expect(outcome).toEqual({ isRetryable: true, reason: 'unavailable', code: '57P01' });
  expect(docs).toContain(
    "const outcome = classifyDriverError(Object.assign(new Error('terminating connection'), { code: '57P01' }));",
  );
  expect(docs).toContain("// { isRetryable: true, reason: 'unavailable', code: '57P01' }");
});

it('docs/sql.md example: one opener, one rule, one runner', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'nimbus-sql-docs-'));
  const filename = join(dir, 'app.db');
  const env: Record<string, string | undefined> = {};
  try {
    // --- example start ---
    const table = sqlName(env.NOTES_TABLE ?? 'notes', 'NOTES_TABLE'); // InvalidOption unless plain and at most 46
    const { db } = openKysely({ dialect: 'sqlite', filename });
    const journal = tableJournal({
      connection: db,
      dialect: 'sqlite',
      table: `${table}_migrations`,
      placement: `table "${table}"`,
    });
    const migrations = [
      {
        name: '0001_notes',
        up: (tx: SqlExecutor) =>
          tx.run(`create table "${table}" (id text primary key)`).then(() => undefined),
      },
    ];
    await runMigrations(journal, { mode: 'AutoApply', migrations }); // applied: ['0001_notes']
    await runMigrations(journal, { mode: 'VerifyOnly', migrations }); // current: one read of the journal, no DDL
    await sqlExecutorOf(db, 'sqlite').run(`insert into "${table}" (id) values (?)`, ['n-1']);
    // --- example end ---
    expect(await sqlExecutorOf(db, 'sqlite').all('select id from notes')).toEqual([{ id: 'n-1' }]);
    expect(docs).toContain("const { db } = openKysely({ dialect: 'sqlite', filename });");
    expect(docs).toContain("await runMigrations(journal, { mode: 'VerifyOnly', migrations });");
    await db.destroy();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
