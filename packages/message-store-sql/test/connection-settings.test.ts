import { describe, expect, it } from 'vitest';
import { resolveConnectionSettings } from '../src/index.js';

const url = (name: string) => `postgres://u@h/${name}`;

describe('resolveConnectionSettings', () => {
  it('defaults to SQLite at .nimbus/store.db with schema prefix nimbus', () => {
    expect(resolveConnectionSettings({ env: {} })).toEqual({
      dialect: 'sqlite',
      filename: '.nimbus/store.db',
      schema: 'nimbus',
      busyTimeoutMs: 5000,
    });
  });

  it('reads the dialect and SQLite path from the environment, explicit options winning', () => {
    const env = { NIMBUS_STORE: 'sqlite', NIMBUS_STORE_SQLITE_PATH: '/data/env.db' };
    expect(resolveConnectionSettings({ env })).toMatchObject({ filename: '/data/env.db' });
    expect(resolveConnectionSettings({ env, filename: '/data/explicit.db' })).toMatchObject({
      filename: '/data/explicit.db',
    });
    expect(
      resolveConnectionSettings({ env: { NIMBUS_STORE: 'postgres', NIMBUS_POSTGRES_URL: url('a') } }),
    ).toMatchObject({
      dialect: 'postgres',
    });
  });

  it('takes the PostgreSQL connection string in the documented order', () => {
    const all = {
      NIMBUS_POSTGRES_URL: url('pg-url'),
      NIMBUS_STORE_CONNECTION_STRING: url('store'),
      NIMBUS_CONNECTION_STRING_POSTGRES: url('named'),
    };
    const resolve = (env: Record<string, string>, explicit?: string) =>
      resolveConnectionSettings({
        dialect: 'postgres',
        env,
        ...(explicit ? { connectionString: explicit } : {}),
      });
    expect(resolve(all, url('explicit'))).toMatchObject({
      connectionString: url('explicit'),
      source: 'option connectionString',
    });
    expect(resolve(all)).toMatchObject({ connectionString: url('pg-url'), source: 'NIMBUS_POSTGRES_URL' });
    const { NIMBUS_POSTGRES_URL: _a, ...withoutUrl } = all;
    expect(resolve(withoutUrl)).toMatchObject({ connectionString: url('store') });
    const { NIMBUS_STORE_CONNECTION_STRING: _b, ...namedOnly } = withoutUrl;
    expect(resolve(namedOnly)).toMatchObject({
      connectionString: url('named'),
      source: 'NIMBUS_CONNECTION_STRING_POSTGRES',
    });
    expect(
      resolveConnectionSettings({
        dialect: 'postgres',
        connectionName: 'orders',
        env: { NIMBUS_CONNECTION_STRING_ORDERS: url('orders') },
      }),
    ).toMatchObject({ connectionString: url('orders') });
  });

  it('never reads the command line', () => {
    const saved = process.argv;
    process.argv = [...saved, '--connectionString', url('argv'), `NIMBUS_POSTGRES_URL=${url('argv')}`];
    try {
      expect(() => resolveConnectionSettings({ dialect: 'postgres', env: {} })).toThrow(
        /No PostgreSQL connection string/,
      );
    } finally {
      process.argv = saved;
    }
  });

  it('names every source when no connection string is set, without echoing values', () => {
    expect(() =>
      resolveConnectionSettings({ dialect: 'postgres', env: { NIMBUS_STORE_CONNECTION_STRING: '  ' } }),
    ).toThrow(
      'Set one of: option connectionString, NIMBUS_POSTGRES_URL, NIMBUS_STORE_CONNECTION_STRING, NIMBUS_CONNECTION_STRING_POSTGRES.',
    );
  });

  it('rejects a schema that is not a plain identifier, and an unknown NIMBUS_STORE', () => {
    expect(() => resolveConnectionSettings({ env: {}, schema: 'nimbus; drop table x' })).toThrow(
      /Invalid store option 'schema'/,
    );
    expect(() => resolveConnectionSettings({ env: { NIMBUS_STORE: 'oracle' } })).toThrow(
      /NIMBUS_STORE value 'oracle'/,
    );
    expect(() => resolveConnectionSettings({ env: {}, busyTimeoutMs: 0 })).toThrow(/busyTimeoutMs/);
  });
});
