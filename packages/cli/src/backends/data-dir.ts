import { mkdirSync } from 'node:fs';

/**
 * Creates the data directory (and its parents) readable by this user only (0700): it holds the SQLite
 * databases, with password hashes, sessions and message payloads. An existing directory is left as it is.
 */
export function ensureDataDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
}
