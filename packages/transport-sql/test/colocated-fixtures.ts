import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TransportMessage } from '@nimbus/core';
import type {
  ColocatedProjection,
  MessageStateChangeNotifier,
  OpenMessageStore,
  ProjectionPlan,
} from '@nimbus/message-store';
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
    openTransport: async (
      notifier?: MessageStateChangeNotifier,
      recorded?: (message: TransportMessage) => void,
    ): Promise<EndToEndFixture> => {
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
        shape === 'colocated' ? { projection: recorded ? recording(projection, recorded) : projection } : {},
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

/**
 * A bus of this shape as the engine end-to-end suite takes it: the store is opened and only the transport is
 * handed over (co-located, the transport's transactions write the store; apart, the outcomes wait at the
 * Resolver's input, which that suite does not read).
 */
export function engineBus(shape: Shape, place: (shape: Shape) => Placement) {
  const bus = shapes(shape, place);
  return async (): Promise<EndToEndFixture> => {
    await bus.openStore();
    const listeners: ((message: TransportMessage) => void)[] = [];
    const fixture = await bus.openTransport(undefined, (message) => {
      for (const listener of listeners) listener(message);
    });
    return { ...fixture, onRecordedForResolver: (listener) => listeners.push(listener) };
  };
}

/**
 * The projection, telling `recorded` each copy it wrote once its transaction committed: the engine suite reads
 * what reached the Resolver, and co-located these copies never travel there.
 */
function recording(
  projection: ColocatedProjection,
  recorded: (message: TransportMessage) => void,
): ColocatedProjection {
  type Recorded = ProjectionPlan & { readonly inner: ProjectionPlan; readonly message: TransportMessage };
  let written: TransportMessage[] = [];
  return {
    dialect: projection.dialect,
    plan(message) {
      const inner = projection.plan(message);
      return inner === null ? null : ({ endpointId: inner.endpointId, inner, message } satisfies Recorded);
    },
    async write(tx, plans) {
      const changed = await projection.write(
        tx,
        plans.map((plan) => (plan as Recorded).inner),
      );
      written.push(...plans.map((plan) => (plan as Recorded).message));
      return changed;
    },
    async committed(db, endpoints) {
      const copies = written;
      written = [];
      for (const message of copies) recorded(message);
      await projection.committed(db, endpoints);
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
