import { SchemaOutOfDateError, type SqlConnection, type SqlDialect, sqlExecutorOf } from '@nimbus/sql';
import { expect, it } from 'vitest';
import { SqlInboxStore, SqlOutboxStore } from '../../src/index.js';

export interface ReliabilityMigrationTarget {
  readonly connection: SqlConnection;
  readonly dialect: SqlDialect;
  /** PostgreSQL: a schema of the case's own; SQLite: none. */
  readonly schema: string | undefined;
  /** Index names on `table`. */
  indexes(table: string): Promise<string[]>;
  tables(): Promise<string[]>;
}

/** The migration cases of the outbox and inbox tables on one engine. */
export function reliabilityMigrationCases(target: () => Promise<ReliabilityMigrationTarget>): void {
  it('VerifyOnly refuses an unmigrated outbox and inbox with SchemaOutOfDateError naming the migration; no DDL', async () => {
    const t = await target();
    const options = t.schema ? { schema: t.schema } : {};
    const outbox = new SqlOutboxStore(t.connection, t.dialect, options);
    const inbox = new SqlInboxStore(t.connection, t.dialect, { ...options, migrationMode: 'VerifyOnly' });
    for (const store of [outbox, inbox]) {
      const error = await store.migrate('VerifyOnly').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SchemaOutOfDateError);
      expect(error).toMatchObject({ code: 'SchemaOutOfDate', unapplied: ['0001_baseline'] });
      expect((error as Error).message).toContain('0001_baseline');
    }
    // An inbox in VerifyOnly mode refuses its first use the same way.
    await expect(inbox.hasProcessed('Erp', 'm1')).rejects.toBeInstanceOf(SchemaOutOfDateError);
    expect(await t.tables()).toEqual([]);
  });

  it('AutoApply creates both tables with their journals; again it is a no-op and VerifyOnly passes', async () => {
    const t = await target();
    const options = t.schema ? { schema: t.schema } : {};
    const outbox = new SqlOutboxStore(t.connection, t.dialect, options);
    const inbox = new SqlInboxStore(t.connection, t.dialect, { ...options, migrationMode: 'VerifyOnly' });
    for (const store of [outbox, inbox]) {
      expect((await store.migrate('AutoApply')).applied).toEqual(['0001_baseline']);
      expect(await store.migrate('AutoApply')).toEqual({ applied: [], alreadyApplied: ['0001_baseline'] });
      await expect(store.migrate('VerifyOnly')).resolves.toMatchObject({ applied: [] });
    }
    expect(await t.tables()).toEqual([
      'nimbus_inbox',
      'nimbus_inbox_migrations',
      'nimbus_outbox',
      'nimbus_outbox_migrations',
    ]);
    await inbox.recordProcessed('Erp', 'm1');
    expect(await inbox.hasProcessed('Erp', 'm1')).toBe(true);
  });

  it('an inbox the create-if-missing code made is baselined: its records kept, its index renamed rather than doubled', async () => {
    const t = await target();
    const executor = sqlExecutorOf(t.connection, t.dialect);
    const table = t.schema ? `"${t.schema}"."nimbus_inbox"` : '"nimbus_inbox"';
    const epoch = t.dialect === 'postgres' ? 'bigint' : 'integer';
    // What SqlInboxStore.ensureTableExists ran before the journal (its index named after the qualified table).
    await executor.run(`create table if not exists ${table} (identity_hash text primary key, endpoint_id text not null,
      message_id text not null, created_at ${epoch} not null)`);
    const oldIndex = `"${table.replace(/"/g, '').replace(/\./g, '_')}_endpoint_created"`;
    await executor.run(`create index if not exists ${oldIndex} on ${table} (endpoint_id, created_at)`);
    const options = t.schema ? { schema: t.schema } : {};
    const old = new SqlInboxStore(t.connection, t.dialect, { ...options, autoCreateTable: false });
    await old.recordProcessed('Erp', 'before');
    const inbox = new SqlInboxStore(t.connection, t.dialect, options);
    await expect(inbox.migrate('VerifyOnly')).rejects.toBeInstanceOf(SchemaOutOfDateError);
    expect(await inbox.hasProcessed('Erp', 'before')).toBe(true);
    await expect(inbox.migrate('VerifyOnly')).resolves.toMatchObject({ alreadyApplied: ['0001_baseline'] });
    expect((await t.indexes('nimbus_inbox')).filter((name) => name.endsWith('_endpoint_created'))).toEqual([
      'nimbus_inbox_endpoint_created',
    ]);
  });
}
