import { leaseManyStatement, leaseStatement, lineFlags } from '../../lease-statements.js';
import type { DialectLease } from '../dialect.js';

export const postgresLease: DialectLease = {
  // One round trip takes the lease and reads what the line holds (the UPDATE touches only sessions).
  async leaseSession(context, input, sessionId, token) {
    const { sql, params } = leaseStatement(context, input, sessionId, token);
    const rows = await context.db.all(
      `WITH leased AS (${sql}) SELECT leased.*, ${lineFlags(context, 'leased.session_id')} FROM leased`,
      [...params, input, token, input],
      { prepared: true },
    );
    const row = rows[0];
    return row ? { row, line: row } : null;
  },

  // One statement leases them all (FOR UPDATE SKIP LOCKED LIMIT n), each with its own token.
  async leaseSessions(context, input, tokens) {
    const rows = await context.db.all(
      leaseManyStatement(context),
      [input, tokens.length, context.options.lockDurationMs, tokens, input, input, input],
      { prepared: true },
    );
    return rows.map((row) => ({ row, line: row }));
  },
};
