import { beforeAll, expect, it } from 'vitest';
import { assertCliBuilt, runWithClosedStdout } from './support/cli-process.js';

beforeAll(assertCliBuilt);

it('exits quietly with code 0 when the reader of stdout goes away (nimbus … | head)', async () => {
  // Like `head` after its first lines: the read end closes before the command has written everything.
  const { code, stderr } = await runWithClosedStdout([
    'topology',
    'export',
    '--platform',
    '@nimbus/example-crm-erp',
  ]);
  expect(stderr).not.toMatch(/EPIPE|Error/);
  expect(code).toBe(0);
});
