import type { DialectLocks } from '../dialect.js';

export const postgresLocks: DialectLocks = {
  async lockTopology(tx, t) {
    await tx.run(`SELECT pg_advisory_xact_lock(hashtext(?))`, [t.inputs]);
  },
  // REPEATABLE READ with the candidates locked (`SKIP LOCKED`): a row a publisher, consumer or lease touched after
  // the snapshot fails the sweep with a serialization error instead of being deleted on stale information.
  async isolateSweep(tx) {
    await tx.run('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
  },
};
