import { describe, expect, it } from 'vitest';
import type { IdentityStore } from '../../src/index.js';

const user = (id: string, email: string) => ({
  id,
  email,
  displayName: null,
  passwordHash: 'scrypt$1$1$1$a$b',
  siteRole: 'Reader' as const,
  createdAt: new Date('2026-01-01T00:00:00Z'),
});

/** Behaviour every IdentityStore shares. `create` gives a fresh, initialised store. */
export function describeIdentityStore(name: string, create: () => Promise<IdentityStore>): void {
  describe(`IdentityStore (${name})`, () => {
    it('creates the first user only once, even when two bootstraps race', async () => {
      const store = await create();
      const results = await Promise.all([
        store.createUserIfNoneExist(user('u1', 'a@example.test')),
        store.createUserIfNoneExist(user('u2', 'b@example.test')),
      ]);
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await store.countUsers()).toBe(1);
      await store.close();
    });

    it('stores emails normalised and refuses duplicates', async () => {
      const store = await create();
      await store.createUser(user('u1', ' Mixed@Example.TEST '));
      expect((await store.findUserByEmail('mixed@example.test'))?.id).toBe('u1');
      await expect(store.createUser(user('u2', 'mixed@example.test'))).rejects.toThrow(/already exists/);
      await store.close();
    });

    it('counts parallel sign-in attempts atomically and locks a key for a bounded time', async () => {
      const store = await create();
      const policy = { maxAttempts: 5, windowMs: 60_000, lockMs: 300_000 };
      const now = new Date('2026-01-01T00:00:00Z');
      const counts = await Promise.all(
        Array.from({ length: 40 }, () => store.countLoginAttempt('address:1.2.3.4|a@x', now, policy)),
      );
      // Each attempt saw its own count: exactly five were let through, one started the lock.
      expect(counts.filter((c) => c.lockedUntil === null)).toHaveLength(5);
      expect(counts.filter((c) => c.lockStarted)).toHaveLength(1);
      expect(
        counts
          .map((c) => c.attempts)
          .sort((a, b) => a - b)
          .slice(0, 6),
      ).toEqual([1, 2, 3, 4, 5, 6]);
      const locked = await store.countLoginAttempt(
        'address:1.2.3.4|a@x',
        new Date(now.getTime() + 1000),
        policy,
      );
      expect(locked.lockedUntil?.toISOString()).toBe(new Date(now.getTime() + 300_000).toISOString());
      expect(locked.lockStarted).toBe(false);
      // Another key is untouched; the lock ends on its own.
      expect((await store.countLoginAttempt('address:5.6.7.8|a@x', now, policy)).attempts).toBe(1);
      const after = await store.countLoginAttempt(
        'address:1.2.3.4|a@x',
        new Date(now.getTime() + 300_001),
        policy,
      );
      expect(after).toEqual({ attempts: 1, lockedUntil: null, lockStarted: false });
      await store.clearLoginAttempts(['address:1.2.3.4|a@x']);
      expect((await store.countLoginAttempt('address:1.2.3.4|a@x', now, policy)).attempts).toBe(1);
      await store.close();
    });

    it('keeps API tokens hashed, finds only active ones, revokes once', async () => {
      const store = await create();
      await store.createUser(user('u1', 'a@example.test'));
      const now = new Date('2026-01-01T00:00:00Z');
      const token = {
        id: 't1',
        userId: 'u1',
        name: 'ci',
        tokenHash: 'hash-1',
        maxRole: 'Reader' as const,
        createdAt: now,
        expiresAt: new Date(now.getTime() + 60_000),
        revokedAt: null,
      };
      await store.createApiToken(token);
      expect(await store.findApiToken('hash-1', now)).toEqual(token);
      expect(await store.findApiToken('hash-1', new Date(now.getTime() + 60_000))).toBeNull();
      expect(await store.listApiTokens('u1')).toEqual([token]);
      expect(await store.revokeApiToken('u2', 't1', now)).toBe(false);
      expect(await store.revokeApiToken('u1', 't1', now)).toBe(true);
      expect(await store.revokeApiToken('u1', 't1', now)).toBe(false);
      expect(await store.findApiToken('hash-1', now)).toBeNull();
      expect((await store.listApiTokens('u1'))[0]?.revokedAt?.toISOString()).toBe(now.toISOString());
      await store.close();
    });

    it('keeps roles and sessions (expired sessions are not found)', async () => {
      const store = await create();
      await store.createUser(user('u1', 'a@example.test'));
      await store.setSiteRole('u1', 'Owner', new Date());
      await store.setEndpointRole('u1', 'Erp', 'Contributor');
      await store.setEndpointRole('u1', 'Crm', 'Reader');
      await store.setEndpointRole('u1', 'Crm', null);
      expect((await store.findUserById('u1'))?.siteRole).toBe('Owner');
      expect(await store.listEndpointRoles('u1')).toEqual([
        { userId: 'u1', endpointId: 'Erp', role: 'Contributor' },
      ]);
      const now = new Date('2026-01-01T00:00:00Z');
      await store.createSession({
        tokenHash: 'h1',
        userId: 'u1',
        csrfToken: 'c',
        createdAt: now,
        expiresAt: new Date(now.getTime() + 1000),
      });
      expect((await store.findSession('h1', now))?.csrfToken).toBe('c');
      expect(await store.findSession('h1', new Date(now.getTime() + 1000))).toBeNull();
      await store.deleteSessionsOfUser('u1');
      expect(await store.findSession('h1', now)).toBeNull();
      await store.close();
    });

    it('disables and enables an account, and deletes one with its grants, sessions and tokens', async () => {
      const store = await create();
      await store.createUser(user('u1', 'a@example.test'));
      await store.createUser(user('u2', 'b@example.test'));
      expect((await store.findUserById('u1'))?.disabledAt).toBeNull();
      const at = new Date('2026-02-01T10:00:00Z');
      await store.setDisabled('u1', at, at);
      expect((await store.findUserById('u1'))?.disabledAt?.toISOString()).toBe(at.toISOString());
      expect((await store.listUsers()).find((u) => u.id === 'u1')?.disabledAt?.toISOString()).toBe(
        at.toISOString(),
      );
      await store.setDisabled('u1', null, at);
      expect((await store.findUserById('u1'))?.disabledAt).toBeNull();

      const now = new Date('2026-01-01T00:00:00Z');
      await store.setEndpointRole('u1', 'Erp', 'Owner');
      await store.createSession({
        tokenHash: 'h1',
        userId: 'u1',
        csrfToken: 'c',
        createdAt: now,
        expiresAt: new Date(now.getTime() + 60_000),
      });
      await store.createApiToken({
        id: 't1',
        userId: 'u1',
        name: 'ci',
        tokenHash: 'hash-1',
        maxRole: null,
        createdAt: now,
        expiresAt: new Date(now.getTime() + 60_000),
        revokedAt: null,
      });
      expect(await store.deleteUser('u1')).toBe(true);
      expect(await store.deleteUser('u1')).toBe(false);
      expect(await store.findUserById('u1')).toBeNull();
      expect(await store.listEndpointRoles('u1')).toEqual([]);
      expect(await store.findSession('h1', now)).toBeNull();
      expect(await store.findApiToken('hash-1', now)).toBeNull();
      expect((await store.listUsers()).map((u) => u.id)).toEqual(['u2']);
      await store.close();
    });

    it('treats an email with SQL in it as data', async () => {
      const store = await create();
      expect(await store.findUserByEmail("x' OR '1'='1")).toBeNull();
      await store.close();
    });
  });
}
