import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';

/** A fresh SQLite database file in its own temp directory; `close()` removes both. */
export function tempSqlite(name = 'reliability.db') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-reliability-'));
  const file = path.join(dir, name);
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  return {
    db,
    file,
    dir,
    close() {
      if (db.open) db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
