import { leaseManyStatement, leaseStatement, lineFlags } from '../../lease-statements.js';
import type { DialectLease } from '../dialect.js';

export const postgresLease: DialectLease = {
  // One round trip takes the lease and reads what the line holds (the UPDATE touches only sessions).
  async leaseSession(core, input, sessionId, token) {
    const { sql, params } = leaseStatement(core, input, sessionId, token);
    const rows = await core.db.all(
      `WITH leased AS (${sql}) SELECT leased.*, ${lineFlags(core, 'leased.session_id')} FROM leased`,
      [...params, input, token, input],
      { prepared: true },
    );
    const row = rows[0];
    return row ? { row, line: row } : null;
  },

  // One statement leases them all (FOR UPDATE SKIP LOCKED LIMIT n), each with its own token.
  async leaseSessions(core, input, tokens) {
    const rows = await core.db.all(
      leaseManyStatement(core),
      [input, tokens.length, core.options.lockDurationMs, tokens, input, input, input],
      { prepared: true },
    );
    return rows.map((row) => ({ row, line: row }));
  },
};
