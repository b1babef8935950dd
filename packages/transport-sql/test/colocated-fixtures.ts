import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MessageStateChangeNotifier, OpenMessageStore } from '@nimbus/message-store';
import { createSqlColocatedProjection, createSqlMessageStore } from '@nimbus/message-store-sql';
import type { EndToEndFixture } from '@nimbus/testing/e2e';
import { createSqlTransport } from '../src/index.js';

/**
 * SQLite buses for the shape suites: a case opens its store first, then its transport, on the same file
 * (`colocated`: the transport records plain outcomes in the store in its own transactions) or on two files
 * (`apart`: every copy travels to the Resolver). The fixture's cleanup closes the store and removes the files.
 */
export function sqliteShapes(shape: 'colocated' | 'apart') {
  let current: { dir: string; store: OpenMessageStore } | null = null;
  return {
    openStore: async (): Promise<OpenMessageStore> => {
      const dir = mkdtempSync(join(tmpdir(), `nimbus-${shape}-`));
      const store = await createSqlMessageStore({
        dialect: 'sqlite',
        filename: join(dir, 'bus.db'),
        retentionSweep: false,
        env: {},
      });
      current = { dir, store };
      return store;
    },
    openTransport: async (notifier?: MessageStateChangeNotifier): Promise<EndToEndFixture> => {
      const opened = current;
      if (opened === null) throw new Error('open the store first');
      current = null;
      const projection = createSqlColocatedProjection({
        dialect: 'sqlite',
        filename: join(opened.dir, 'bus.db'),
        env: {},
        ...(notifier ? { notifier } : {}),
      });
      const transport = await createSqlTransport(
        { dialect: 'sqlite', path: join(opened.dir, shape === 'colocated' ? 'bus.db' : 'transport.db') },
        shape === 'colocated' ? { projection } : {},
      );
      return {
        transport,
        clock: null,
        cleanup: async () => {
          await opened.store.close();
          rmSync(opened.dir, { recursive: true, force: true });
        },
      };
    },
  };
}
