import { leaseStatement, lineFlags } from '../../lease-statements.js';
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
};
