import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MessageStateChangeNotifier, OpenMessageStore } from '@nimbus/message-store';
import {
  createSqlColocatedProjection,
  createSqlMessageStore,
  type SqlMessageStoreOptions,
} from '@nimbus/message-store-sql';
import type { EndToEndFixture } from '@nimbus/testing/e2e';
import { createSqlTransport, type SqlTransportConnection } from '../src/index.js';

export type Shape = 'colocated' | 'apart';

/** Where one case keeps its store and its transport. */
interface Placement {
  readonly store: SqlMessageStoreOptions;
  readonly transport: SqlTransportConnection;
  readonly cleanup: () => Promise<void>;
}

/**
 * Buses for the shape suites: a case opens its store first, then its transport, in the same database
 * (`colocated`: the transport records plain outcomes in the store in its own transactions) or in two
 * (`apart`: every copy travels to the Resolver). The fixture's cleanup closes the store and removes the case.
 */
export function shapes(shape: Shape, place: (shape: Shape) => Placement) {
  let current: { placement: Placement; store: OpenMessageStore } | null = null;
  return {
    openStore: async (): Promise<OpenMessageStore> => {
      const placement = place(shape);
      const store = await createSqlMessageStore({ ...placement.store, retentionSweep: false, env: {} });
      current = { placement, store };
      return store;
    },
    openTransport: async (notifier?: MessageStateChangeNotifier): Promise<EndToEndFixture> => {
      const opened = current;
      if (opened === null) throw new Error('open the store first');
      current = null;
      const { placement } = opened;
      const projection = createSqlColocatedProjection({
        ...placement.store,
        env: {},
        ...(notifier ? { notifier } : {}),
      });
      const transport = await createSqlTransport(
        placement.transport,
        shape === 'colocated' ? { projection } : {},
      );
      return {
        transport,
        clock: null,
        cleanup: async () => {
          await opened.store.close();
          await placement.cleanup();
        },
      };
    },
  };
}

/** SQLite: one file, or a store file and a transport file, in a fresh directory. */
export function sqlitePlacement(shape: Shape): Placement {
  const dir = mkdtempSync(join(tmpdir(), `nimbus-${shape}-`));
  return {
    store: { dialect: 'sqlite', filename: join(dir, 'bus.db') },
    transport: { dialect: 'sqlite', path: join(dir, shape === 'colocated' ? 'bus.db' : 'transport.db') },
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

let schemas = 0;

/** PostgreSQL: fresh schemas, the store's in `busUrl` (co-located) or in `storeUrl` (apart). */
export function postgresPlacement(busUrl: string, storeUrl: string) {
  return (shape: Shape): Placement => {
    const n = ++schemas;
    return {
      store: {
        dialect: 'postgres',
        connectionString: shape === 'colocated' ? busUrl : storeUrl,
        schema: `store_${n}`,
        poolSize: 2,
      },
      transport: { dialect: 'postgres', connectionString: busUrl, schema: `transport_${n}`, poolSize: 4 },
      cleanup: async () => undefined,
    };
  };
}
