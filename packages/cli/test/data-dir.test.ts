import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openIdentityStore } from '../src/backends/open-identity.js';
import { loadConfig } from '../src/config.js';

describe('the data directory', () => {
  it('is created readable by its user only (0700), parents included', async () => {
    const root = mkdtempSync(join(tmpdir(), 'nimbus-data-dir-'));
    try {
      const dataDir = join(root, 'nested', '.nimbus');
      const config = loadConfig({ dataDir, store: 'sqlite' }, {});
      const identity = openIdentityStore(config);
      await identity.initialize();
      await identity.close();
      expect((statSync(dataDir).mode & 0o777).toString(8)).toBe('700');
      expect((statSync(join(root, 'nested')).mode & 0o777).toString(8)).toBe('700');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
