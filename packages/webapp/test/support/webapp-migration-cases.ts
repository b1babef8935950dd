import { SchemaOutOfDateError, type SqlDialect, type SqlExecutor } from '@nimbus/sql';
import { expect, it } from 'vitest';
import {
  createSqlAlertStore,
  createSqlBulkJobStore,
  createSqlIdentityStore,
  migrateWebAppTables,
  type WebAppDatabaseOptions,
  type WebAppTableSet,
  webAppMigrationNames,
} from '../../src/index.js';
import { createLegacyWebAppTables } from './legacy-webapp-tables.js';

/** A fresh, empty database for one case: its options, raw SQL on it, and what names it in messages. */
export interface WebAppMigrationTarget {
  readonly database: (set: WebAppTableSet) => WebAppDatabaseOptions;
  readonly dialect: SqlDialect;
  readonly schema: string | null;
  /** Runs `work` with raw SQL on the database of `set`. */
  sql<T>(set: WebAppTableSet, work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  tableExists(set: WebAppTableSet, table: string): Promise<boolean>;
}

const SETS: readonly WebAppTableSet[] = ['identity', 'alerts', 'bulkJobs'];
const JOURNALS = {
  identity: 'nimbus_identity_migrations',
  alerts: 'nimbus_alert_migrations',
  bulkJobs: 'nimbus_bulk_job_migrations',
} as const;

function openStore(set: WebAppTableSet, options: WebAppDatabaseOptions) {
  if (set === 'identity') return createSqlIdentityStore(options);
  if (set === 'alerts') return createSqlAlertStore(options);
  return createSqlBulkJobStore(options);
}

/** The migration cases every WebApp table set passes on each engine. */
export function webAppMigrationCases(target: () => Promise<WebAppMigrationTarget>): void {
  it('VerifyOnly refuses each unmigrated set with SchemaOutOfDateError naming the missing migrations, and runs no DDL', async () => {
    const t = await target();
    for (const set of SETS) {
      const error = await migrateWebAppTables(set, t.database(set), { mode: 'VerifyOnly' }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(SchemaOutOfDateError);
      expect(error).toMatchObject({ code: 'SchemaOutOfDate', unapplied: webAppMigrationNames(set) });
      for (const name of webAppMigrationNames(set)) expect((error as Error).message).toContain(name);
      // A store opened VerifyOnly refuses to start the same way.
      const store = openStore(set, { ...t.database(set), migrationMode: 'VerifyOnly' });
      await expect(store.initialize()).rejects.toBeInstanceOf(SchemaOutOfDateError);
      await store.close();
      expect(await t.tableExists(set, JOURNALS[set])).toBe(false);
    }
  });

  it('AutoApply creates each set once and journals it; a second run is a no-op and VerifyOnly then passes', async () => {
    const t = await target();
    for (const set of SETS) {
      const first = await migrateWebAppTables(set, t.database(set), { mode: 'AutoApply' });
      expect(first.applied).toEqual(webAppMigrationNames(set));
      const again = await migrateWebAppTables(set, t.database(set), { mode: 'AutoApply' });
      expect(again).toEqual({ applied: [], alreadyApplied: webAppMigrationNames(set) });
      const store = openStore(set, { ...t.database(set), migrationMode: 'VerifyOnly' });
      await store.initialize();
      await store.close();
    }
    expect(await t.tableExists('identity', 'nimbus_identity_api_tokens')).toBe(true);
    expect(await t.tableExists('alerts', 'nimbus_alert_snoozes')).toBe(true);
    expect(await t.tableExists('bulkJobs', 'nimbus_bulk_job_items')).toBe(true);
  });

  it('a database the create-if-missing WebApp made is baselined: its rows kept, the later columns and tables added', async () => {
    const t = await target();
    // SQLite keeps each set in a file of its own; PostgreSQL all of them in one schema.
    const databases = t.schema === null ? SETS : SETS.slice(0, 1);
    for (const set of databases) await t.sql(set, (tx) => createLegacyWebAppTables(tx, t.dialect, t.schema));
    for (const set of SETS) {
      await expect(migrateWebAppTables(set, t.database(set), { mode: 'VerifyOnly' })).rejects.toBeInstanceOf(
        SchemaOutOfDateError,
      );
    }
    const identity = createSqlIdentityStore(t.database('identity'));
    const alerts = createSqlAlertStore(t.database('alerts'));
    const bulk = createSqlBulkJobStore(t.database('bulkJobs'));
    try {
      await Promise.all([identity.initialize(), alerts.initialize(), bulk.initialize()]);
      expect(await identity.findUserById('u1')).toMatchObject({
        email: 'old@example.test',
        disabledAt: null,
      });
      const at = new Date('2026-03-01T00:00:00Z');
      await identity.setDisabled('u1', at, at);
      expect((await identity.findUserById('u1'))?.mustChangePassword).toBe(false);
      expect(await alerts.touchSignature('Erp', 'sig-1', 10, 1_000)).toBe(5);
      expect(await alerts.listSnoozes(0)).toEqual([]);
      expect(await bulk.get('old-1')).toMatchObject({ endpointIds: ['Erp'], state: 'completed', refused: 0 });
    } finally {
      await Promise.all([identity.close(), alerts.close(), bulk.close()]);
    }
    for (const set of SETS) {
      await expect(migrateWebAppTables(set, t.database(set), { mode: 'VerifyOnly' })).resolves.toMatchObject({
        alreadyApplied: webAppMigrationNames(set),
      });
    }
  });
}
