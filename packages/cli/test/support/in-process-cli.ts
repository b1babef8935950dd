import { rmSync } from 'node:fs';
import { DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD } from '@nimbus/webapp';
import { afterAll, expect } from 'vitest';
import { type CliIo, runCli } from '../../src/program.js';

/** An io that keeps what a command printed: stdout lines and stderr texts. */
export function capture(): CliIo & { lines: string[]; errors: string[] } {
  const lines: string[] = [];
  const errors: string[] = [];
  return { lines, errors, out: (line) => lines.push(line), err: (text) => errors.push(text) };
}

/** `process.argv` of `nimbus …args`. */
export const argv = (...args: string[]) => ['node', 'nimbus', ...args];

/** Runs the CLI with these environment variables set (the secrets never go through argv). */
export async function withEnv(env: Record<string, string>, run: () => Promise<number>) {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    return await run();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/** A list of directories the file's tests create, removed after all of them. */
export function dirsRemovedAfterAll(): string[] {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  return dirs;
}

/**
 * Signs the seeded admin in to the WebApp at `url` with `nimbus tokens create` and returns the environment a
 * remote command runs with: the WebApp's url and the new API token.
 */
export async function remoteTokenEnv(url: string): Promise<Record<string, string>> {
  const created = capture();
  const session = {
    NIMBUS_WEBAPP_URL: url,
    NIMBUS_WEBAPP_EMAIL: DEFAULT_ADMIN_EMAIL,
    NIMBUS_WEBAPP_PASSWORD: DEFAULT_ADMIN_PASSWORD,
  };
  expect(await withEnv(session, () => runCli(argv('tokens', 'create', 'ops', '--json'), created))).toBe(0);
  return { NIMBUS_WEBAPP_URL: url, NIMBUS_API_TOKEN: JSON.parse(created.lines[0]!).token };
}
