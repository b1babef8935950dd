import { leaseStatement, lineFlags } from '../../lease-statements.js';
import type { SqlExecutor } from '../../sql/database.js';
import type { DialectContext, DialectLease, LeasedSession } from '../dialect.js';

// The lease, then what the line holds: two statements on the local file.
async function leaseOne(
  context: DialectContext,
  executor: SqlExecutor,
  input: string,
  sessionId: string | null,
  token: string,
): Promise<LeasedSession | null> {
  const { sql, params } = leaseStatement(context, input, sessionId, token);
  const [row] = await executor.all(sql, params, { prepared: true });
  if (!row) return null;
  const leased = String(row.session_id);
  const [line] = await executor.all(
    `SELECT ${lineFlags(context, '?')}`,
    [input, leased, token, input, leased],
    {
      prepared: true,
    },
  );
  return { row, line };
}

export const sqliteLease: DialectLease = {
  leaseSession: (context, input, sessionId, token) => leaseOne(context, context.db, input, sessionId, token),

  // One BEGIN IMMEDIATE transaction (the file's single writer): each lease in it sees the ones before.
  leaseSessions(context, input, tokens) {
    return context.db.transaction(async (tx) => {
      const leased: LeasedSession[] = [];
      for (const token of tokens) {
        const next = await leaseOne(context, tx, input, null, token);
        if (!next) break;
        leased.push(next);
      }
      return leased;
    });
  },
};
