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

    it('keeps roles, lockout state and sessions (expired sessions are not found)', async () => {
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
      const lockedUntil = new Date('2026-01-01T00:15:00Z');
      await store.recordLoginFailure('u1', 0, lockedUntil);
      expect((await store.findUserById('u1'))?.lockedUntil?.toISOString()).toBe(lockedUntil.toISOString());
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

    it('treats an email with SQL in it as data', async () => {
      const store = await create();
      expect(await store.findUserByEmail("x' OR '1'='1")).toBeNull();
      await store.close();
    });
  });
}
