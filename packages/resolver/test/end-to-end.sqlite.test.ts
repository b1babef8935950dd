import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OpenMessageStore } from '@nimbus/message-store';
import { afterAll, describe } from 'vitest';
import { describeResolverEndToEnd } from '../src/e2e/index.js';
import { onMemoryTransport } from './support/memory-transport.js';
import { sqlStoreFactory } from './support/sql-store.js';

const createSqlStore = await sqlStoreFactory('Resolver end to end (SQLite store)');
const dir = mkdtempSync(join(tmpdir(), 'nimbus-resolver-e2e-'));
const opened: OpenMessageStore[] = [];

describe.runIf(createSqlStore !== null)('SQLite', () => {
  afterAll(async () => {
    for (const store of opened) await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  describeResolverEndToEnd('SQLite store', {
    openStore: async () => {
      const store = await createSqlStore!({
        dialect: 'sqlite',
        filename: join(dir, `store-${opened.length}.db`),
        retentionSweep: false,
        env: {},
      });
      opened.push(store);
      return store;
    },
    openTransport: onMemoryTransport,
  });
});
