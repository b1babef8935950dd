import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The compiled CLI; the tests run what users run (`npm run build` compiles it first). */
export const CLI_BIN = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));

export function assertCliBuilt(): void {
  if (!existsSync(CLI_BIN)) {
    throw new Error(`${CLI_BIN} is missing: build first (npm run build, or npx tsc -b packages/cli).`);
  }
}

/** The environment minus NIMBUS_* settings of the developer's shell, plus the given ones. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('NIMBUS_')) env[key] = value;
  return { ...env, ...extra };
}

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs one CLI command to completion (bounded by `timeoutMs`). */
export function runCli(
  args: readonly string[],
  env: NodeJS.ProcessEnv = cleanEnv(),
  timeoutMs = 20_000,
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`nimbus ${args.join(' ')} did not finish in ${timeoutMs} ms.\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * Runs one CLI command whose stdout reader is gone before it writes, like `nimbus … | head` once `head` has
 * its lines; returns the exit code and stderr.
 */
export async function runWithClosedStdout(
  args: readonly string[],
  env: NodeJS.ProcessEnv = cleanEnv(),
): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [CLI_BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.destroy();
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, stderr };
}

/** A long-running process (`nimbus dev`, an adapter) whose output the test can wait on. */
export class CliDaemon {
  readonly child: ChildProcess;
  stdout = '';
  stderr = '';
  readonly exited: Promise<number | null>;

  /** Runs the CLI with `args`, or another compiled script when `script` is given. */
  constructor(args: readonly string[], env: NodeJS.ProcessEnv = cleanEnv(), script: string = CLI_BIN) {
    this.child = spawn(process.execPath, [script, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child.stdout?.on('data', (chunk: Buffer) => {
      this.stdout += chunk.toString();
    });
    this.child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString();
    });
    this.exited = new Promise((resolve) => this.child.on('close', (code) => resolve(code)));
  }

  /** Resolves the first match of `pattern` in stdout; rejects after `timeoutMs` or if the process exits. */
  async waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
    const deadline = Date.now() + timeoutMs;
    let exited = false;
    void this.exited.then(() => {
      exited = true;
    });
    while (Date.now() < deadline) {
      const match = this.stdout.match(pattern);
      if (match) return match;
      if (exited) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(
      `Timed out waiting for ${pattern} (exited: ${exited}).\n--- stdout\n${this.stdout}\n--- stderr\n${this.stderr}`,
    );
  }

  /** SIGTERM, then SIGKILL if it does not stop in time; resolves the exit code. */
  async stop(timeoutMs = 15_000): Promise<number | null> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return this.child.exitCode;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    const code = await this.exited;
    clearTimeout(timer);
    return code;
  }
}

/** Polls `probe` until it returns a value (not undefined), at most `timeoutMs`. */
export async function eventually<T>(
  probe: () => Promise<T | undefined>,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`Timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
}
