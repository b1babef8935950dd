import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

describe('loadConfig', () => {
  it('defaults to one co-located SQLite file under .nimbus on 127.0.0.1:7070', () => {
    const config = loadConfig({}, {});
    expect(config).toMatchObject({
      store: 'sqlite',
      transport: 'sqlite',
      tracking: 'colocated',
      host: '127.0.0.1',
      port: 7070,
      postgresUrl: null,
    });
    expect(config.dataDir).toBe(resolve('.nimbus'));
    expect(config.storeSqlitePath).toBe(join(resolve('.nimbus'), 'transport.db'));
    expect(config.transportSqlitePath).toBe(join(resolve('.nimbus'), 'transport.db'));
    expect(config.identitySqlitePath).toBe(join(resolve('.nimbus'), 'identity.db'));
  });

  it('keeps the store apart with NIMBUS_TRACKING=resolver, and refuses co-location across databases', () => {
    const apart = loadConfig({}, { NIMBUS_TRACKING: 'resolver' });
    expect(apart.tracking).toBe('resolver');
    expect(apart.storeSqlitePath).toBe(join(resolve('.nimbus'), 'store.db'));
    expect(loadConfig({ store: 'memory' }, {}).tracking).toBe('resolver');
    expect(
      loadConfig({ store: 'postgres', transport: 'postgres' }, { NIMBUS_POSTGRES_URL: 'postgres://x/db' })
        .tracking,
    ).toBe('colocated');
    expect(() => loadConfig({ store: 'memory' }, { NIMBUS_TRACKING: 'colocated' })).toThrow(
      /needs the store and the transport in one database/,
    );
    expect(() => loadConfig({}, { NIMBUS_TRACKING: 'both' })).toThrow(
      "NIMBUS_TRACKING must be one of colocated, resolver; got 'both'",
    );
  });

  it('lets options win over the environment', () => {
    const env = { NIMBUS_DATA_DIR: '/env', NIMBUS_STORE: 'memory', NIMBUS_PORT: '9000' };
    expect(loadConfig({}, env)).toMatchObject({ dataDir: '/env', store: 'memory', port: 9000 });
    expect(loadConfig({ dataDir: '/opt', store: 'sqlite', port: '0' }, env)).toMatchObject({
      dataDir: '/opt',
      store: 'sqlite',
      port: 0,
    });
  });

  it('takes the PostgreSQL connection string from the environment only', () => {
    const config = loadConfig({ store: 'postgres' }, { NIMBUS_POSTGRES_URL: 'postgres://x/db' });
    expect(config.postgresUrl).toBe('postgres://x/db');
    expect(() => loadConfig({ transport: 'postgres' }, {})).toThrow(/NIMBUS_POSTGRES_URL is not set/);
  });

  it('names the setting that is wrong', () => {
    expect(() => loadConfig({ store: 'mysql' }, {})).toThrow(ConfigError);
    expect(() => loadConfig({ store: 'mysql' }, {})).toThrow(
      "--store must be one of sqlite, postgres, memory, cosmos; got 'mysql'",
    );
    // Cosmos DB is a store, not a transport.
    expect(loadConfig({ store: 'cosmos' }, {}).store).toBe('cosmos');
    expect(() => loadConfig({ transport: 'cosmos' }, {})).toThrow(
      "--transport must be one of sqlite, postgres, memory, servicebus; got 'cosmos'",
    );
    expect(() => loadConfig({}, { NIMBUS_TRANSPORT: 'kafka' })).toThrow(/^NIMBUS_TRANSPORT must be one of/);
    expect(() => loadConfig({ port: '70000' }, {})).toThrow(
      "--port must be a port number between 0 and 65535; got '70000'",
    );
    expect(() => loadConfig({}, { NIMBUS_PORT: 'abc' })).toThrow(/^NIMBUS_PORT must be a port number/);
  });
});
