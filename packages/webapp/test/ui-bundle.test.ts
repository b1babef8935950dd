import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import { CHUNK_SIZE_LIMIT_KB, chunkSizeGuard } from '../ui/chunk-size-guard.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const vite = path.resolve(packageDir, '../../node_modules/vite/bin/vite.js');

describe('the UI bundle', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-ui-bundle-'));
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it(`builds into chunks under ${CHUNK_SIZE_LIMIT_KB} kB each, with no chunk-size warning`, async () => {
    const outDir = path.join(tmp, 'dist');
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [vite, 'build', '--config', 'ui/vite.config.ts', '--outDir', outDir],
      { cwd: packageDir, timeout: 240_000 },
    );
    const output = `${stdout}\n${stderr}`;
    expect(output).not.toMatch(/larger than \d+ kB|chunkSizeWarningLimit/);
    const scripts = fs.readdirSync(path.join(outDir, 'assets')).filter((f) => f.endsWith('.js'));
    expect(scripts.length).toBeGreaterThanOrEqual(4);
    for (const file of scripts) {
      const kb = fs.statSync(path.join(outDir, 'assets', file)).size / 1000;
      expect(kb, file).toBeLessThan(CHUNK_SIZE_LIMIT_KB);
    }
  }, 300_000);

  it('fails a build whose chunk is over the limit, naming the chunk', async () => {
    const root = path.join(tmp, 'large');
    fs.mkdirSync(root);
    fs.writeFileSync(
      path.join(root, 'index.html'),
      '<!doctype html><script type="module" src="./main.js"></script>',
    );
    // About 700 kB of code that minification cannot shrink.
    const words = Array.from({ length: 100_000 }, (_, i) => `w${i.toString(36)}x`).join(' ');
    fs.writeFileSync(path.join(root, 'main.js'), `document.title = ${JSON.stringify(words)};\n`);
    await expect(
      build({
        root,
        logLevel: 'silent',
        configFile: false,
        plugins: [chunkSizeGuard()],
        build: { outDir: path.join(tmp, 'large-dist') },
      }),
    ).rejects.toThrow(/UI chunks over 500 kB: assets\/index-[^ ]+\.js \(\d+\.\d kB\)/);
  }, 120_000);
});
