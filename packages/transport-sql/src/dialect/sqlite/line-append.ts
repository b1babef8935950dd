import type { DialectLineAppend } from '../dialect.js';

// SQLite: every append is a transaction of multi-row statements (line-writer.ts, no `publishPlain`); the single
// writer holds the database for all of it, and there is no one to notify.

export const sqliteLineAppend: DialectLineAppend = {
  async insertLastChunk(tx, insertSql, params) {
    await tx.run(insertSql, params);
  },
};
