import type { MigrationJournal } from '@nimbus/sql';
import type { SqlDatabase, SqlExecutor } from '../sql/database.js';
import type { Tables } from '../tables.js';

/**
 * The transport's journal (`schema_migrations` beside its tables) for the one migration runner of `@nimbus/sql`.
 * Reading it is a plain SELECT (no DDL, no lock); applying takes `pg_advisory_xact_lock` on PostgreSQL and the
 * write lock (`BEGIN IMMEDIATE`) on SQLite.
 */
export function transportJournal(
  db: SqlDatabase,
  t: Tables,
  namespace: string,
): MigrationJournal<SqlExecutor> {
  const pg = db.dialect === 'postgres';
  const exists = async (executor: SqlExecutor): Promise<boolean> => {
    const rows = pg
      ? await executor.all(`SELECT to_regclass(?) IS NOT NULL AS found`, [t.journal])
      : await executor.all(`SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = ?`, [
          t.journal.replace(/"/g, ''),
        ]);
    return rows.length > 0 && Boolean(rows[0]!.found);
  };
  return {
    placement: pg ? `transport schema "${namespace}"` : `transport tables "${namespace}*"`,
    async readApplied(tx) {
      const executor = tx ?? db;
      if (!(await exists(executor))) return null;
      const rows = await executor.all(`SELECT name FROM ${t.journal}`);
      return new Set(rows.map((row) => String(row.name)));
    },
    locked: (work) =>
      db.transaction(async (tx) => {
        if (pg)
          await tx.run(`SELECT pg_advisory_xact_lock(hashtext(?))`, [`nimbus-transport-schema:${namespace}`]);
        return work(tx);
      }),
    async createJournal(tx) {
      if (pg) await tx.run(`CREATE SCHEMA IF NOT EXISTS "${namespace}"`);
      await tx.run(
        `CREATE TABLE IF NOT EXISTS ${t.journal} (name text PRIMARY KEY, applied_at ${pg ? 'bigint' : 'INTEGER'} NOT NULL)`,
      );
    },
    async record(tx, name, appliedAt) {
      await tx.run(`INSERT INTO ${t.journal} (name, applied_at) VALUES (?, ?)`, [name, appliedAt]);
    },
  };
}
