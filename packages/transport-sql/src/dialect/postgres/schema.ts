import type { DialectSchema } from '../dialect.js';

export const postgresSchema: DialectSchema = {
  columnTypes: { bigint: 'bigint', identity: 'bigint generated always as identity primary key' },
  placement: (namespace) => `transport schema "${namespace}"`,
  async journalExists(executor, journal) {
    const rows = await executor.all(`SELECT to_regclass(?) IS NOT NULL AS found`, [journal]);
    return rows.length > 0 && Boolean(rows[0]!.found);
  },
  async lockForMigration(tx, namespace) {
    // DDL may wait for locks and build indexes for long: the pool's statement and lock timeouts (bounded waits of
    // the services) do not apply to a migration transaction.
    await tx.run('SET LOCAL statement_timeout = 0');
    await tx.run('SET LOCAL lock_timeout = 0');
    await tx.run(`SELECT pg_advisory_xact_lock(hashtext(?))`, [`nimbus-transport-schema:${namespace}`]);
  },
  async createNamespace(tx, namespace) {
    await tx.run(`CREATE SCHEMA IF NOT EXISTS "${namespace}"`);
  },
};
