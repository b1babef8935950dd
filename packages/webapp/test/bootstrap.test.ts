import { type Logger, systemClock } from '@nimbus/core';
import { describe, expect, it } from 'vitest';
import { bootstrapAdmin } from '../src/auth/bootstrap-admin.js';
import { verifyPassword } from '../src/auth/password.js';
import { createMemoryIdentityStore } from '../src/index.js';

function recordingLogger() {
  const lines: string[] = [];
  const log = (fields: Record<string, unknown>, message: string) =>
    lines.push(`${message} ${JSON.stringify(fields)}`);
  const logger: Logger = { debug: log, info: log, warn: log, error: log };
  return { logger, lines };
}

describe('bootstrap admin', () => {
  it('creates admin@local as site Owner with the default password, never in a log line', async () => {
    const identityStore = createMemoryIdentityStore();
    const { logger, lines } = recordingLogger();
    const result = await bootstrapAdmin({ identityStore, logger, clock: systemClock, env: {} });
    expect(result).toMatchObject({ created: true, email: 'admin@local', passwordSource: 'default' });
    const admin = (await identityStore.findUserByEmail('admin@local'))!;
    expect(admin.siteRole).toBe('Owner');
    expect(await verifyPassword('Local!Admin123', admin.passwordHash)).toBe(true);
    expect(lines.join('\n')).not.toContain('Local!Admin123');
    expect(lines.join('\n')).toContain('public default password');
  });

  it('is one-shot: a second run with other env values creates nothing', async () => {
    const identityStore = createMemoryIdentityStore();
    const { logger } = recordingLogger();
    await bootstrapAdmin({ identityStore, logger, clock: systemClock, env: {} });
    const again = await bootstrapAdmin({
      identityStore,
      logger,
      clock: systemClock,
      env: {
        NIMBUS_IDENTITY_ADMIN_EMAIL: 'other@example.test',
        NIMBUS_IDENTITY_ADMIN_PASSWORD: 'Other!Pass1',
      },
    });
    expect(again).toEqual({ created: false, existingUsers: 1 });
    expect(await identityStore.findUserByEmail('other@example.test')).toBeNull();
  });

  it('never logs a password that came from the environment', async () => {
    const identityStore = createMemoryIdentityStore();
    const { logger, lines } = recordingLogger();
    const secret = 'Env!Secret987';
    const result = await bootstrapAdmin({
      identityStore,
      logger,
      clock: systemClock,
      env: { NIMBUS_IDENTITY_ADMIN_EMAIL: 'Ops@Example.test', NIMBUS_IDENTITY_ADMIN_PASSWORD: secret },
    });
    expect(result).toMatchObject({ created: true, email: 'Ops@Example.test', passwordSource: 'env' });
    expect(lines.join('\n')).not.toContain(secret);
    expect(await identityStore.findUserByEmail('ops@example.test')).not.toBeNull();
  });

  it('returns a generated password for the sign-in banner but never logs it; refuses a weak env password', async () => {
    const { logger, lines } = recordingLogger();
    const generated = await bootstrapAdmin({
      identityStore: createMemoryIdentityStore(),
      logger,
      clock: systemClock,
      env: {},
      generatePassword: true,
    });
    expect(generated).toMatchObject({ passwordSource: 'generated' });
    const password = generated.created ? (generated.generatedPassword ?? '') : '';
    expect(password.length).toBeGreaterThan(16);
    expect(lines.join('\n')).not.toContain(password);
    expect(lines.join('\n')).not.toContain('Local!Admin123');
    await expect(
      bootstrapAdmin({
        identityStore: createMemoryIdentityStore(),
        logger,
        clock: systemClock,
        env: { NIMBUS_IDENTITY_ADMIN_PASSWORD: 'weak' },
      }),
    ).rejects.toThrow(/NIMBUS_IDENTITY_ADMIN_PASSWORD is too weak/);
  });
});
