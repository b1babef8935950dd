import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { createMemoryIdentityStore, createSqlIdentityStore } from '../src/index.js';
import { describeIdentityStore } from './support/identity-store-suite.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-identity-'));
let n = 0;
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describeIdentityStore('memory', async () => createMemoryIdentityStore());
describeIdentityStore('SQLite', async () => {
  const store = createSqlIdentityStore({ dialect: 'sqlite', filename: path.join(dir, `identity-${n++}.db`) });
  await store.initialize();
  await store.initialize();
  return store;
});
