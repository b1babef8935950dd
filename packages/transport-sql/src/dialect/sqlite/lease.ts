import { leaseStatement, lineFlags } from '../../lease-statements.js';
import type { DialectLease } from '../dialect.js';

export const sqliteLease: DialectLease = {
  // The lease, then what the line holds: two statements on the local file.
  async leaseSession(core, input, sessionId, token) {
    const { sql, params } = leaseStatement(core, input, sessionId, token);
    const [row] = await core.db.all(sql, params, { prepared: true });
    if (!row) return null;
    const leased = String(row.session_id);
    const [line] = await core.db.all(
      `SELECT ${lineFlags(core, '?')}`,
      [input, leased, token, input, leased],
      {
        prepared: true,
      },
    );
    return { row, line };
  },
};
