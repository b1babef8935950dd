import type { SqlMessageStoreOptions } from '@nimbus/message-store-sql';
import type { SqlTransportConnection } from '../../src/index.js';

/** The store and the transport of the crash test, in one database, from the environment the test sets. */
export function crashConnections(env: Readonly<Record<string, string | undefined>>): {
  store: SqlMessageStoreOptions;
  transport: SqlTransportConnection;
} {
  if (env.DIALECT === 'postgres') {
    const url = env.DATABASE_URL ?? '';
    return {
      store: { dialect: 'postgres', connectionString: url, schema: 'crash_store', poolSize: 2 },
      transport: { dialect: 'postgres', connectionString: url, schema: 'crash_transport', poolSize: 2 },
    };
  }
  const path = env.DATABASE_PATH ?? '';
  return { store: { dialect: 'sqlite', filename: path }, transport: { dialect: 'sqlite', path } };
}
