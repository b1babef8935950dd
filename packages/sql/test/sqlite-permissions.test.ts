import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteDatabase } from '../src/index.js';

const dir = mkdtempSync(path.join(tmpdir(), 'nimbus-sqlite-mode-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const mode = (file: string) => statSync(file).mode & 0o777;

describe('openSqliteDatabase file permissions', () => {
  it('creates the database, its WAL and shared-memory files owner-only (0600), whatever the umask', () => {
    const previous = process.umask(0o000);
    try {
      const file = path.join(dir, 'data', 'nimbus.db');
      const db = openSqliteDatabase(file);
      db.exec('create table t (x text); insert into t values (1)');
      expect(mode(file)).toBe(0o600);
      expect(mode(`${file}-wal`)).toBe(0o600);
      expect(mode(`${file}-shm`)).toBe(0o600);
      expect(mode(path.dirname(file))).toBe(0o700);
      db.close();
    } finally {
      process.umask(previous);
    }
  });

  it('tightens an existing world-readable database file of ours', () => {
    const file = path.join(dir, 'old.db');
    openSqliteDatabase(file).close();
    chmodSync(file, 0o644);
    openSqliteDatabase(file).close();
    expect(mode(file)).toBe(0o600);
  });
});
