import { silentLogger, systemClock } from '@nimbus/core';
import type { OpenMessageStore } from '@nimbus/message-store';
import { MemoryTransport } from '@nimbus/transport-memory';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createWebApp,
  DEFAULT_ADMIN_EMAIL,
  DEFAULT_ADMIN_PASSWORD,
  DEFAULT_SIGN_IN_LIMITS,
  type IdentityStore,
  SCRYPT_COST,
  type WebApp,
  type WebAppOptions,
} from '../src/index.js';
import { ApiClient } from './support/api-client.js';
import { SEEDED_ADMIN_ENV } from './support/seeded-admin.js';
import { memoryStores, sqliteIdentityStores } from './support/store-factories.js';

type Json = Record<string, unknown>;
const USER = { email: 'victim@example.test', password: 'Victim!Passphrase7' };

/** A clock the test moves forward, for lockouts that must end. */
function manualClock(start = Date.UTC(2026, 0, 1)) {
  let now = start;
  return {
    now: () => now,
    sleep: systemClock.sleep,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

interface App {
  readonly app: WebApp;
  readonly url: string;
  readonly store: OpenMessageStore;
  readonly identityStore: IdentityStore;
  /** A client whose requests come from `address` (X-Forwarded-For; the app trusts the proxy). */
  from(address: string): ApiClient & { login2(email: string, password: string): Promise<number> };
}

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const item of opened.splice(0)) await item.close();
});

async function startApp(factory = memoryStores, options: Partial<WebAppOptions> = {}): Promise<App> {
  const stores = await factory.create();
  const app = await createWebApp({
    store: stores.store,
    identityStore: stores.identityStore,
    transport: new MemoryTransport(),
    logger: silentLogger,
    env: SEEDED_ADMIN_ENV,
    trustProxy: true,
    uiDistDir: '/nonexistent',
    ...options,
  });
  const url = await app.listen();
  opened.push({
    close: async () => {
      await app.close();
      await stores.cleanup();
    },
  });
  const admin = new ApiClient(url);
  await admin.request(
    'POST',
    '/account/login',
    { email: DEFAULT_ADMIN_EMAIL, password: DEFAULT_ADMIN_PASSWORD },
    {
      headers: { 'x-forwarded-for': '10.0.0.1' },
    },
  );
  const created = await admin.request('POST', '/api/users', USER, {
    headers: { 'x-forwarded-for': '10.0.0.1' },
  });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  const from = (address: string) => {
    const client = new ApiClient(url) as ApiClient & { login2(e: string, p: string): Promise<number> };
    const original = client.request.bind(client);
    client.request = (method, path, body, opts = {}) =>
      original(method, path, body, { ...opts, headers: { 'x-forwarded-for': address, ...opts.headers } });
    client.login2 = async (email, password) =>
      (await client.post('/account/login', { email, password })).status;
    return client;
  };
  return { app, url, store: stores.store, identityStore: stores.identityStore, from };
}

const signInAudits = async (store: OpenMessageStore, email: string) =>
  (await store.getMessageAudits(`account:${email}`)).map((a) => a.auditType);

describe.each([memoryStores, sqliteIdentityStores])('sign-in hardening ($name)', (factory) => {
  it('counts forty parallel wrong passwords atomically: the right password is then refused (LockedOut)', async () => {
    const { from } = await startApp(factory, {
      signInLimits: { perAddress: { max: 1000, timeWindowMs: 60_000 } },
    });
    const attacker = from('203.0.113.7');
    const statuses = await Promise.all(
      Array.from({ length: 40 }, () =>
        attacker.post('/account/login', { ...USER, password: 'Wrong!Guess123' }),
      ),
    );
    const codes = statuses.map((r) => (r.body as Json).error);
    expect(statuses.every((r) => r.status === 401)).toBe(true);
    // At most five passwords were checked; every other attempt was refused before any check.
    expect(codes.filter((c) => c === 'Unauthorized').length).toBeLessThanOrEqual(5);
    expect(codes.filter((c) => c === 'LockedOut').length).toBeGreaterThanOrEqual(35);
    const right = await attacker.post('/account/login', USER);
    expect(right.status).toBe(401);
    expect((right.body as Json).error).toBe('LockedOut');
  });
});

describe('sign-in lockout and rate limits', () => {
  it('locks a stranger’s address only, and every lock ends (bounded)', async () => {
    const clock = manualClock();
    const { from } = await startApp(memoryStores, { clock });
    const stranger = from('198.51.100.9');
    for (let i = 0; i < 5; i++) expect(await stranger.login2(USER.email, 'Wrong!Guess123')).toBe(401);
    const locked = await stranger.post('/account/login', USER);
    expect((locked.body as Json).error).toBe('LockedOut');
    // The owner, from another address, still signs in.
    expect(await from('10.1.1.1').login2(USER.email, USER.password)).toBe(200);
    clock.advance(DEFAULT_SIGN_IN_LIMITS.addressLockout.lockMs + 1);
    expect(await stranger.login2(USER.email, USER.password)).toBe(200);
  });

  it('locks the account for every address after many attempts from many addresses, for a bounded time', async () => {
    const clock = manualClock();
    const limits = {
      perAddress: { max: 1000, timeWindowMs: 60_000 },
      accountLockout: { maxAttempts: 8, windowMs: 60_000, lockMs: 120_000 },
    };
    const { from } = await startApp(memoryStores, { clock, signInLimits: limits });
    for (let i = 0; i < 8; i++)
      expect(await from(`192.0.2.${i}`).login2(USER.email, 'Wrong!Guess123')).toBe(401);
    const refused = await from('10.1.1.1').post('/account/login', USER);
    expect((refused.body as Json).error).toBe('LockedOut');
    expect((refused.body as Json).message).toContain('from all addresses');
    clock.advance(120_001);
    expect(await from('10.1.1.1').login2(USER.email, USER.password)).toBe(200);
  });

  it('rate-limits sign-in per client address with 429 and Retry-After', async () => {
    const { from } = await startApp(memoryStores, {
      signInLimits: { perAddress: { max: 3, timeWindowMs: 60_000 } },
    });
    const client = from('203.0.113.50');
    const results = [];
    for (let i = 0; i < 4; i++)
      results.push(await client.post('/account/login', { email: `n${i}@x.test`, password: 'x' }));
    expect(results.slice(0, 3).map((r) => r.status)).toEqual([401, 401, 401]);
    expect(results[3]!.status).toBe(429);
    expect(Number(results[3]!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await from('203.0.113.51').login2(USER.email, USER.password)).toBe(200);
  });

  it('rate-limits sign-in per account across addresses', async () => {
    const { from } = await startApp(memoryStores, {
      signInLimits: {
        perAddress: { max: 1000, timeWindowMs: 60_000 },
        perAccount: { max: 3, timeWindowMs: 60_000 },
      },
    });
    for (let i = 0; i < 3; i++) await from(`192.0.2.${i}`).login2(USER.email, 'Wrong!Guess123');
    expect(await from('192.0.2.99').login2(USER.email, USER.password)).toBe(429);
  });

  it('answers unknown and real accounts alike: same errors, LockedOut for both, the same hashing work', async () => {
    const { from } = await startApp(memoryStores, {
      signInLimits: { perAddress: { max: 1000, timeWindowMs: 60_000 } },
    });
    const client = from('203.0.113.77');
    const answers = async (email: string) => {
      const bodies = [];
      for (let i = 0; i < 6; i++)
        bodies.push(
          (await client.post('/account/login', { email, password: 'Wrong!Guess123' })).body as Json,
        );
      return bodies.map((b) => `${b.error}: ${String(b.message).replace(/after .*$/, 'after …')}`);
    };
    expect(await answers('nobody@example.test')).toEqual(await answers(USER.email));
    const time = async (email: string) => {
      const samples = [];
      for (let i = 0; i < 3; i++) {
        const started = performance.now();
        await from(`198.18.0.${i}`).post('/account/login', { email, password: 'Wrong!Guess123' });
        samples.push(performance.now() - started);
      }
      return samples.sort((a, b) => a - b)[1]!;
    };
    const unknown = await time('ghost@example.test');
    const real = await time(USER.email);
    // Both compute one scrypt hash (hundreds of ms); before the fix an unknown account answered ~20x faster.
    expect(unknown / real).toBeGreaterThan(0.5);
    expect(real / unknown).toBeLessThan(2);
  });

  it('audits sign-in, failure, lockout, sign-out and password change', async () => {
    const { from, store, identityStore } = await startApp(memoryStores);
    const client = from('203.0.113.90');
    expect(await client.login2(USER.email, 'Wrong!Guess123')).toBe(401);
    expect(await client.login2(USER.email, USER.password)).toBe(200);
    const changed = await client.post('/account/change-password', {
      currentPassword: USER.password,
      newPassword: 'Another!Passphrase8',
    });
    expect(changed.status).toBe(200);
    expect((await client.post('/account/logout')).status).toBe(204);
    const other = from('203.0.113.91');
    for (let i = 0; i < 6; i++) await other.login2(USER.email, 'Wrong!Guess123');
    expect(await signInAudits(store, USER.email)).toEqual([
      'SignInFailed',
      'SignIn',
      'SignInFailed',
      'SignInFailed',
      'SignInFailed',
      'SignInFailed',
      'SignInFailed',
      'SignInLockedOut',
    ]);
    const user = (await identityStore.findUserByEmail(USER.email))!;
    const own = (await store.getMessageAudits(`user:${user.id}`)).map((a) => a.auditType);
    expect(own).toEqual(['GrantRole', 'ChangePassword', 'SignOut']);
  });
});

describe('passwords', () => {
  it('rehashes a password stored with the old scrypt cost (2^14) at the next sign-in', async () => {
    const { from, identityStore } = await startApp(memoryStores);
    const user = (await identityStore.findUserByEmail(USER.email))!;
    expect(user.passwordHash.split('$')[1]).toBe(String(SCRYPT_COST));
    const legacy = await legacyHash(USER.password);
    await identityStore.updatePassword(user.id, legacy, new Date());
    expect(await from('10.2.2.2').login2(USER.email, USER.password)).toBe(200);
    const upgraded = (await identityStore.findUserByEmail(USER.email))!.passwordHash;
    expect(upgraded).not.toBe(legacy);
    expect(upgraded.split('$')[1]).toBe(String(2 ** 17));
    expect(await from('10.2.2.3').login2(USER.email, USER.password)).toBe(200);
  });

  it('refuses Password1-class passwords, naming the field', async () => {
    const { from } = await startApp(memoryStores);
    const client = from('10.3.3.3');
    await client.login(USER.email, USER.password);
    for (const weak of ['Password1', 'Password123!', 'Summer2024!', 'victim@example.test1']) {
      const result = await client.post('/account/change-password', {
        currentPassword: USER.password,
        newPassword: weak,
      });
      expect(result.status, weak).toBe(400);
      expect((result.body as Json).message).toContain('body.newPassword');
    }
  });

  it('limits current-password checks when changing the password (429 after five wrong ones)', async () => {
    const { from, store, identityStore } = await startApp(memoryStores);
    const client = from('10.4.4.4');
    await client.login(USER.email, USER.password);
    const tries = [];
    for (let i = 0; i < 6; i++)
      tries.push(
        (
          await client.post('/account/change-password', {
            currentPassword: `Nope!${i}xxxxx`,
            newPassword: 'Another!Passphrase8',
          })
        ).status,
      );
    expect(tries).toEqual([400, 400, 400, 400, 400, 429]);
    const user = (await identityStore.findUserByEmail(USER.email))!;
    const denied = (await store.getMessageAudits(`user:${user.id}`)).filter((a) => a.accessDenied);
    expect(denied).toHaveLength(5);
  });

  it('flags the documented default password until it is changed (the UI shows a banner)', async () => {
    const { url } = await startApp(memoryStores);
    const admin = new ApiClient(url);
    await admin.login(DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD);
    expect(((await admin.get('/api/auth/me')).body as Json).usesDefaultPassword).toBe(true);
    const changed = await admin.post('/account/change-password', {
      currentPassword: DEFAULT_ADMIN_PASSWORD,
      newPassword: 'Fresh!Admin!Passphrase9',
    });
    expect(changed.status).toBe(200);
    expect((changed.body as Json).usesDefaultPassword).toBe(false);
    expect(((await admin.get('/api/auth/me')).body as Json).usesDefaultPassword).toBe(false);
  });
});

/** A hash the way main made it before this change: scrypt N=2^14. */
async function legacyHash(password: string): Promise<string> {
  const { randomBytes, scryptSync } = await import('node:crypto');
  const salt = randomBytes(16);
  const key = scryptSync(password.normalize('NFC'), salt, 64, { N: 2 ** 14, r: 8, p: 1 });
  return ['scrypt', 2 ** 14, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
}
