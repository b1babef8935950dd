import { spawn } from 'node:child_process';
import { beforeAll, expect, it } from 'vitest';
import { assertCliBuilt, CLI_BIN, cleanEnv } from './support/cli-process.js';

beforeAll(assertCliBuilt);

it('exits quietly with code 0 when the reader of stdout goes away (nimbus … | head)', async () => {
  const child = spawn(
    process.execPath,
    [CLI_BIN, 'topology', 'export', '--platform', '@nimbus/example-crm-erp'],
    { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  // Like `head` after its first lines: the read end closes before the command has written everything.
  child.stdout.destroy();
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(stderr).not.toMatch(/EPIPE|Error/);
  expect(code).toBe(0);
});
