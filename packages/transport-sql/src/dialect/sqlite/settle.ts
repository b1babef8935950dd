import type { DialectSettle } from '../dialect.js';

// The single writer makes a transaction of plain statements as cheap as one statement would be: every
// settlement takes the transactional path (no `inOneStatement`).
export const sqliteSettle: DialectSettle = {};
