import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD } from '@nimbus/webapp';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNimbusClient, signIn, unwrap } from '../src/index.js';
import { type RunningWebApp, startWebApp } from './support/web-app.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const docsPage = path.resolve(packageDir, '../../docs/client.md');

/** The TypeScript block after `<!-- example: client -->` in docs/client.md. */
function docsExample(): string {
  const text = readFileSync(docsPage, 'utf8');
  const match = /<!-- example: client -->\s*```ts\n([\s\S]*?)```/.exec(text);
  if (!match?.[1]) throw new Error(`${docsPage} has no "<!-- example: client -->" TypeScript block`);
  return match[1];
}

function typeErrors(file: string): string[] {
  const program = ts.createProgram([file], {
    strict: true,
    noUncheckedIndexedAccess: true,
    target: ts.ScriptTarget.ES2023,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    customConditions: ['source'],
    types: ['node'],
    skipLibCheck: true,
    noEmit: true,
  });
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe('the example of docs/client.md', () => {
  let web: RunningWebApp;
  // Inside the package, so that the example resolves @nimbus/client as a user's program would.
  const dir = mkdtempSync(path.join(packageDir, '.docs-example-'));
  const file = path.join(dir, 'example.ts');
  beforeAll(async () => {
    writeFileSync(file, docsExample());
    web = await startWebApp();
  }, 60_000);
  afterAll(async () => {
    await web?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('compiles under strict TypeScript', () => {
    expect(typeErrors(file)).toEqual([]);
  }, 120_000);

  it('runs against a real WebApp with an API token and prints the failed event and the refusal', async () => {
    const session = await signIn({
      baseUrl: web.url,
      email: DEFAULT_ADMIN_EMAIL,
      password: DEFAULT_ADMIN_PASSWORD,
    });
    const owner = createNimbusClient({ baseUrl: web.url, auth: session });
    const { token } = await unwrap(
      owner.POST('/api/account/tokens', { body: { name: 'docs-example', expiresInDays: 1 } }),
    );
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', file],
      {
        cwd: packageDir,
        env: { ...process.env, NIMBUS_WEBAPP_URL: web.url, NIMBUS_API_TOKEN: token },
        timeout: 90_000,
      },
    );
    const lines = stdout.trim().split('\n');
    expect(lines).toContain('Erp ev-client (no error text)');
    expect(lines.at(-1)).toBe('refused: POST /api/endpoints/Erp/events/no-such-event/skip 404 NotFound');
  }, 120_000);
});
