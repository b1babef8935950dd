import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script without type declarations
import { checkLayers } from '../scripts/check-layers.mjs';

const roots: string[] = [];

function workspace(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'layer-check-'));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const manifest = (name: string, dependencies: Record<string, string> = {}) =>
  JSON.stringify({ name, dependencies });

afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe('layer check (scripts/check-layers.mjs)', () => {
  it('passes when every import points to a lower layer and is declared', () => {
    const root = workspace({
      'packages/core/package.json': manifest('@nimbus/core'),
      'packages/core/src/index.ts': 'export const x = 1;\n',
      'packages/sdk/package.json': manifest('@nimbus/sdk', { '@nimbus/core': '*' }),
      'packages/sdk/src/index.ts': "import { x } from '@nimbus/core';\nexport const y = x;\n",
    });
    expect(checkLayers(root)).toEqual([]);
  });

  it('fails on a deliberately wrong import against the layer order', () => {
    const root = workspace({
      'packages/core/package.json': manifest('@nimbus/core', { '@nimbus/sdk': '*' }),
      'packages/core/src/index.ts': "import { y } from '@nimbus/sdk';\nexport const x = y;\n",
      'packages/sdk/package.json': manifest('@nimbus/sdk'),
      'packages/sdk/src/index.ts': 'export const y = 1;\n',
    });
    expect(checkLayers(root)).toEqual([
      'packages/core/src/index.ts: @nimbus/core (layer 0) imports @nimbus/sdk (layer 1); imports must point to a lower layer',
    ]);
  });

  it('fails when a provider imports the application-facing SDK, although the SDK is a lower layer', () => {
    const root = workspace({
      'packages/sdk/package.json': manifest('@nimbus/sdk'),
      'packages/sdk/src/index.ts': 'export const MAX_PAYLOAD_DEPTH = 32;\n',
      'packages/reliability/package.json': manifest('@nimbus/reliability', { '@nimbus/sdk': '*' }),
      'packages/reliability/src/index.ts':
        "import { MAX_PAYLOAD_DEPTH } from '@nimbus/sdk';\nexport const depth = MAX_PAYLOAD_DEPTH;\n",
    });
    expect(checkLayers(root)).toEqual([
      'packages/reliability/src/index.ts: @nimbus/reliability is a provider and imports @nimbus/sdk; providers depend on contracts (core, sql, message-store), not on the application-facing SDK',
    ]);
  });

  it('fails on undeclared imports, unused dependencies and imports of an example package', () => {
    const root = workspace({
      'packages/core/package.json': manifest('@nimbus/core', { zod: '*' }),
      'packages/core/src/index.ts': "import pg from 'pg';\nexport const x = pg;\n",
      'packages/cli/package.json': manifest('@nimbus/cli', { '@nimbus/example': '*' }),
      'packages/cli/src/index.ts': "import { p } from '@nimbus/example';\nexport const q = p;\n",
      'examples/sample/package.json': manifest('@nimbus/example'),
      'examples/sample/src/index.ts': 'export const p = 1;\n',
    });
    expect(checkLayers(root).sort()).toEqual(
      [
        'packages/core/src/index.ts: imports pg, which @nimbus/core does not declare as a dependency',
        '@nimbus/core: declares the dependency zod but its src never imports it',
        'packages/cli/src/index.ts: imports the example package @nimbus/example (load it like any user platform)',
      ].sort(),
    );
  });
});
