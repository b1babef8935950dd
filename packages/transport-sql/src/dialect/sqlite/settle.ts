import { settleInTransaction, settleManyInTransaction } from '../../sql-settle-rows.js';
import type { DialectSettle } from '../dialect.js';

// The single writer makes a transaction of plain statements as cheap as one statement would be: every
// settlement takes the transactional path.
export const sqliteSettle: DialectSettle = {
  one: settleInTransaction,
  many: settleManyInTransaction,
};
