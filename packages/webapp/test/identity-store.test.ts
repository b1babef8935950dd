import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
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

describe('SQLite identity tables made before accounts could be disabled', () => {
  it('gain the disabled_at column on start, keeping their users', async () => {
    const filename = path.join(dir, 'before-disable.db');
    const old = new Database(filename);
    old.exec(`create table nimbus_identity_users (
      id varchar(64) primary key, email varchar(320) not null unique, display_name varchar(200),
      password_hash varchar(512) not null, site_role varchar(20) not null,
      failed_logins integer not null default 0, locked_until varchar(40),
      created_at varchar(40) not null, updated_at varchar(40) not null)`);
    old
      .prepare('insert into nimbus_identity_users values (?, ?, null, ?, ?, 0, null, ?, ?)')
      .run(
        'u1',
        'old@example.test',
        'scrypt$1$1$1$a$b',
        'Owner',
        '2025-01-01T00:00:00.000Z',
        '2025-01-01T00:00:00.000Z',
      );
    old.close();
    const store = createSqlIdentityStore({ dialect: 'sqlite', filename });
    await store.initialize();
    await store.initialize();
    expect(await store.findUserById('u1')).toMatchObject({ email: 'old@example.test', disabledAt: null });
    const at = new Date('2026-03-01T00:00:00Z');
    await store.setDisabled('u1', at, at);
    expect((await store.findUserById('u1'))?.disabledAt?.toISOString()).toBe(at.toISOString());
    await store.close();
  });
});
