import type { MigrationJournal } from '@nimbus/sql';
import type { DialectSchema } from '../dialect/dialect.js';
import type { SqlDatabase, SqlExecutor } from '../sql/database.js';
import type { Tables } from '../tables.js';

/**
 * The transport's journal (`schema_migrations` beside its tables) for the one migration runner of `@nimbus/sql`.
 * Reading it is a plain SELECT (no DDL, no lock); applying takes `pg_advisory_xact_lock` on PostgreSQL and the
 * write lock (`BEGIN IMMEDIATE`) on SQLite.
 */
export function transportJournal(
  schema: DialectSchema,
  db: SqlDatabase,
  t: Tables,
  namespace: string,
): MigrationJournal<SqlExecutor> {
  return {
    placement: schema.placement(namespace),
    async readApplied(tx) {
      const executor = tx ?? db;
      if (!(await schema.journalExists(executor, t.journal))) return null;
      const rows = await executor.all(`SELECT name FROM ${t.journal}`);
      return new Set(rows.map((row) => String(row.name)));
    },
    locked: (work) =>
      db.transaction(async (tx) => {
        await schema.lockForMigration(tx, namespace);
        return work(tx);
      }),
    async createJournal(tx) {
      await schema.createNamespace(tx, namespace);
      await tx.run(
        `CREATE TABLE IF NOT EXISTS ${t.journal} (name text PRIMARY KEY, applied_at ${schema.columnTypes.bigint} NOT NULL)`,
      );
    },
    async record(tx, name, appliedAt) {
      await tx.run(`INSERT INTO ${t.journal} (name, applied_at) VALUES (?, ?)`, [name, appliedAt]);
    },
  };
}
