import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { NimBusError, NimBusErrorCode } from '@nimbus/core';
import type Database from 'better-sqlite3';
import { loadBetterSqlite3 } from './drivers.js';

export interface SqliteOpenOptions {
  /** How long a writer waits for another process's write lock before SQLITE_BUSY; default 5 000 ms. */
  readonly busyTimeoutMs?: number;
  /** Create the parent directory when missing; default true. */
  readonly createDirectory?: boolean;
}

/**
 * Opens a SQLite database the way every NimBus package does: WAL (many readers, one writer, across processes),
 * `synchronous = NORMAL` (durable at checkpoints, never corrupt) and a busy timeout so writers of other processes
 * wait instead of failing at once.
 */
export function openSqliteDatabase(filename: string, options: SqliteOpenOptions = {}): Database.Database {
  const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
  if (!(Number.isInteger(busyTimeoutMs) && busyTimeoutMs >= 0)) {
    throw new NimBusError(
      NimBusErrorCode.InvalidOption,
      `SQLite busyTimeoutMs must be a non-negative integer, got ${String(busyTimeoutMs)}`,
    );
  }
  if (filename.length === 0)
    throw new NimBusError(NimBusErrorCode.InvalidOption, 'SQLite database path must not be empty');
  const inMemory = filename === ':memory:' || filename.startsWith('file::memory:');
  if (!inMemory && options.createDirectory !== false)
    mkdirSync(dirname(filename), { recursive: true, mode: 0o700 });
  if (!inMemory) restrictToOwner(filename);
  const SqliteDatabase = loadBetterSqlite3();
  const db = new SqliteDatabase(filename, { timeout: busyTimeoutMs });
  if (!inMemory) db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma(`busy_timeout = ${busyTimeoutMs}`);
  return db;
}

/**
 * The files hold password hashes, sessions and payloads: owner-only (0600). A new file is created that way
 * (SQLite gives its -wal and -shm files the database file's mode); an existing one of ours is tightened.
 */
function restrictToOwner(filename: string): void {
  if (filename.startsWith('file:')) return;
  closeSync(openSync(filename, 'a', 0o600));
  const stat = statSync(filename);
  if ((stat.mode & 0o077) !== 0 && stat.uid === process.getuid?.()) chmodSync(filename, 0o600);
}
