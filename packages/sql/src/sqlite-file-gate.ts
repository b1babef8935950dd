import { resolve } from 'node:path';

/**
 * Turns for the connections of ONE process to one SQLite file. SQLite lets one connection write at a time and
 * better-sqlite3 waits for the write lock synchronously: when a connection holds a transaction open across
 * awaits (the transport's settlements, the store's batches) and another connection of the same process asks for
 * the lock meanwhile, the waiting call blocks the only thread, the holder can never finish, and the wait ends in
 * SQLITE_BUSY after the busy timeout. Connections that take a turn here before they touch the file never meet
 * that way; other processes still wait on SQLite's own lock, as before.
 */
export class SqliteFileGate {
  #tail: Promise<void> = Promise.resolve();
  #pending = 0;

  /** Someone holds the gate or waits for it. */
  get busy(): boolean {
    return this.#pending > 0;
  }

  /** Waits for the turn; call the returned function (once) to end it. */
  async acquire(): Promise<() => void> {
    const previous = this.#tail;
    let release!: () => void;
    this.#tail = new Promise<void>((done) => {
      release = done;
    });
    this.#pending += 1;
    await previous;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#pending -= 1;
      release();
    };
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await fn();
    } finally {
      release();
    }
  }
}

const gates = new Map<string, SqliteFileGate>();

/** The gate of this process for the file at `filename` (an in-memory database gets one of its own). */
export function sqliteFileGate(filename: string): SqliteFileGate {
  if (filename === ':memory:' || filename.startsWith('file::memory:')) return new SqliteFileGate();
  const key = filename.startsWith('file:') ? filename : resolve(filename);
  let gate = gates.get(key);
  if (!gate) {
    gate = new SqliteFileGate();
    gates.set(key, gate);
  }
  return gate;
}
