import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createMemoryMessageStore, type OpenMessageStore } from '@nimbus/message-store';
import type { IdentityStore } from '../../src/index.js';
import { createMemoryIdentityStore, createSqlIdentityStore } from '../../src/index.js';

export interface StoreSet {
  readonly store: OpenMessageStore;
  readonly identityStore: IdentityStore;
  /** The database both live in, for tests that act on the database itself (PostgreSQL only). */
  readonly connectionString?: string;
  cleanup(): Promise<void>;
}

/** How an API suite gets its stores; suites are written once and run against every factory. */
export interface StoreFactory {
  readonly name: string;
  create(): Promise<StoreSet>;
}

export const memoryStores: StoreFactory = {
  name: 'memory store + memory identity',
  create: async () => ({
    store: createMemoryMessageStore({ env: {} }),
    identityStore: createMemoryIdentityStore(),
    cleanup: async () => undefined,
  }),
};

/** Memory message store (the SQL provider has not landed yet) with the real SQLite identity tables. */
export const sqliteIdentityStores: StoreFactory = {
  name: 'memory store + SQLite identity',
  create: async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-webapp-'));
    const identityStore = createSqlIdentityStore({
      dialect: 'sqlite',
      filename: path.join(dir, 'identity.db'),
    });
    return {
      store: createMemoryMessageStore({ env: {} }),
      identityStore,
      cleanup: async () => {
        await identityStore.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

/**
 * The SQL message store on a SQLite file, with identity tables in the same file. Loaded lazily so the
 * suites that do not use it keep running while the SQL provider is still being built.
 */
export const sqliteStores: StoreFactory = {
  name: 'SQLite store + SQLite identity (same file)',
  create: async () => {
    const { createSqlMessageStore } = await import('@nimbus/message-store-sql');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-webapp-sql-'));
    const filename = path.join(dir, 'nimbus.db');
    const store = await createSqlMessageStore({
      dialect: 'sqlite',
      filename,
      env: {},
      retentionSweep: false,
    });
    const identityStore = createSqlIdentityStore({ dialect: 'sqlite', filename });
    return {
      store,
      identityStore,
      cleanup: async () => {
        await identityStore.close();
        await store.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

/**
 * The Cosmos DB store on the local Cosmos server (the real @azure/cosmos SDK over https, started in this
 * process), with the memory identity store (identity is not part of the message store).
 */
export const cosmosStores: StoreFactory = {
  name: 'Cosmos DB store (local Cosmos server) + memory identity',
  create: async () => {
    const { openLocalCosmosMessageStore } = await import('@nimbus/message-store-cosmos/local-server');
    const store = await openLocalCosmosMessageStore({ env: {} });
    return {
      store,
      identityStore: createMemoryIdentityStore(),
      cleanup: () => store.close(),
    };
  },
};

/** The SQL message store and the identity tables in one temporary PostgreSQL database. */
export const postgresStores: StoreFactory = {
  name: 'PostgreSQL store + PostgreSQL identity (same database)',
  create: async () => {
    const { createSqlMessageStore } = await import('@nimbus/message-store-sql');
    const { createTemporaryDatabase } = await import('@nimbus/testing/postgres');
    const database = await createTemporaryDatabase('nimbus_webapp_security');
    const store = await createSqlMessageStore({
      dialect: 'postgres',
      connectionString: database.url,
      env: {},
      retentionSweep: false,
    });
    const identityStore = createSqlIdentityStore({ dialect: 'postgres', connectionString: database.url });
    return {
      store,
      identityStore,
      connectionString: database.url,
      cleanup: async () => {
        await identityStore.close();
        await store.close();
        await database.drop();
      },
    };
  },
};
