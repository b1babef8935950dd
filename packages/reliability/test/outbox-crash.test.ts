import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { tempSqlite } from './sqlite-fixture.js';

const ADAPTER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'crash', 'crash-adapter.ts');

interface Run {
  readonly stdout: string;
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** Runs the adapter; with `killAfter`, SIGKILLs it as soon as that line appears on its output. */
function runAdapter(mode: string, file: string, killAfter?: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', ADAPTER, mode, file], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (killAfter && stdout.includes(killAfter)) child.kill('SIGKILL');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (code !== 0 && signal !== 'SIGKILL') reject(new Error(`adapter ${mode} exited ${code}: ${stderr}`));
      else resolve({ stdout, code, signal });
    });
  });
}

let sqlite: ReturnType<typeof tempSqlite> | undefined;
afterEach(() => sqlite?.close());

describe('outbox crash recovery (separate processes, real SQLite file)', () => {
  it('a row committed before a SIGKILL is published once more on restart, and the inbox consumer handles it once', async () => {
    sqlite = tempSqlite('adapter.db');
    sqlite.db.close();
    const { file } = sqlite;

    // 1. The adapter commits its order and the outbox row together, then is killed before any dispatch.
    const commit = await runAdapter('commit', file, 'committed');
    expect(commit.signal).toBe('SIGKILL');
    const afterCommit = new Database(file, { readonly: true });
    expect(afterCommit.prepare('select count(*) as n from orders').get()).toEqual({ n: 1 });
    expect(
      afterCommit.prepare('select count(*) as n from nimbus_outbox where dispatched_at is null').get(),
    ).toEqual({ n: 1 });
    afterCommit.close();

    // 2. Restarted, it sends the row and the consumer handles it, but it dies before checkpointing the row.
    const dispatch = await runAdapter('dispatch', file);
    expect(dispatch.signal).toBe('SIGKILL');

    // 3. Restarted again: the row is still pending, so it goes out exactly once more; the inbox skips the copy.
    const restart = await runAdapter('restart', file);
    expect(restart.code).toBe(0);
    expect(JSON.parse(restart.stdout.trim())).toEqual({
      first: 1,
      second: 0,
      published: 1,
      handled: 0,
      duplicates: 1,
      pending: 0,
    });
    const final = new Database(file, { readonly: true });
    expect(final.prepare('select count(*) as n from handled').get()).toEqual({ n: 1 });
    expect(final.prepare('select count(*) as n from orders').get()).toEqual({ n: 1 });
    final.close();
  });
});
