import type { DialectSchema } from '../dialect.js';

export const sqliteSchema: DialectSchema = {
  columnTypes: { bigint: 'INTEGER', identity: 'INTEGER PRIMARY KEY AUTOINCREMENT' },
  placement: (namespace) => `transport tables "${namespace}*"`,
  async journalExists(executor, journal) {
    const rows = await executor.all(
      `SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = ?`,
      [journal.replace(/"/g, '')],
    );
    return rows.length > 0 && Boolean(rows[0]!.found);
  },
  // The migration transaction holds the write lock (`BEGIN IMMEDIATE`): concurrent migrators wait for it.
  async lockForMigration() {},
  // Tables share the file's one namespace; the prefix is part of each name.
  async createNamespace() {},
};
