import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MessageAuditType } from '@nimbus/message-store';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD, type WebAppOptions } from '../src/index.js';
import { ApiClient } from './support/api-client.js';
import { buildUi, hasChromium, launchChromium, requireChromium } from './support/browser.js';
import { type Harness, READER, startHarness } from './support/harness.js';
import { memoryStores, type StoreFactory, sqliteIdentityStores } from './support/store-factories.js';

type Json = Record<string, unknown>;
const WAIT = { timeout: 15_000 };
const CHOSEN = 'Chosen!Admin-Passphrase-77';

/** The admin seeded the way `nimbus dev` seeds it (no NIMBUS_IDENTITY_ADMIN_PASSWORD), not signed in yet. */
const startWithSeededDefault = (factory: StoreFactory = memoryStores, webApp: Partial<WebAppOptions> = {}) =>
  startHarness(factory, { webApp: { env: {}, ...webApp }, signIn: false });

const dataOf = (row: { data: string | null }): Json => (row.data ? (JSON.parse(row.data) as Json) : {});

const refusals = async (h: Harness) =>
  (await h.stores.store.getMessageAudits('site')).filter(
    (row) => dataOf(row).error === 'PasswordChangeRequired',
  );

describe('a password set for the user must be replaced before anything else works (API)', () => {
  let h: Harness | null = null;
  afterEach(async () => {
    await h?.close();
    h = null;
  });

  for (const factory of [memoryStores, sqliteIdentityStores])
    it(`the bootstrap admin with the public default (${factory.name}): 403 PasswordChangeRequired, audited, until it is changed`, async () => {
      h = await startWithSeededDefault(factory);
      const admin = h.newClient();
      await admin.login(DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD);
      expect((await admin.get('/api/auth/me')).body).toMatchObject({
        isAuthenticated: true,
        mustChangePassword: true,
        usesDefaultPassword: true,
      });
      const refusedCalls = [
        await admin.get('/api/endpoints'),
        await admin.post('/api/account/tokens', { name: 'ci' }),
        await admin.post('/api/users', { ...READER, siteRole: 'Reader' }),
      ];
      for (const refused of refusedCalls)
        expect(refused).toMatchObject({ status: 403, body: { error: 'PasswordChangeRequired' } });
      expect(await admin.streamStatus('/api/live')).toBe(403);
      expect(await refusals(h)).toHaveLength(3);

      const same = await admin.post('/account/change-password', {
        currentPassword: DEFAULT_ADMIN_PASSWORD,
        newPassword: DEFAULT_ADMIN_PASSWORD,
      });
      expect(same).toMatchObject({ status: 400, body: { issues: [{ path: 'body.newPassword' }] } });
      expect((same.body as Json).message).toContain('to differ from the current one');

      const changed = await admin.post('/account/change-password', {
        currentPassword: DEFAULT_ADMIN_PASSWORD,
        newPassword: CHOSEN,
      });
      expect(changed).toMatchObject({
        status: 200,
        body: { mustChangePassword: false, usesDefaultPassword: false },
      });
      expect((await admin.get('/api/endpoints')).status).toBe(200);
      expect((await admin.post('/api/users', { ...READER, siteRole: 'Reader' })).status).toBe(201);
      const user = (await h.stores.identityStore.findUserByEmail(DEFAULT_ADMIN_EMAIL))!;
      const [row] = (await h.stores.store.getMessageAudits(`user:${user.id}`)).filter(
        (a) => a.auditType === MessageAuditType.ChangePassword,
      );
      expect(row?.accessDenied).toBe(false);
      expect(dataOf(row!)).toMatchObject({ forced: true });
      // The flag lives in the identity store: a new sign-in with the new password is not asked again.
      const again = h.newClient();
      await again.login(DEFAULT_ADMIN_EMAIL, CHOSEN);
      expect((await again.get('/api/endpoints')).status).toBe(200);
    });

  it('sign-out works while the change is pending', async () => {
    h = await startWithSeededDefault();
    const admin = h.newClient();
    await admin.login(DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD);
    expect((await admin.post('/account/logout')).status).toBe(204);
    expect((await admin.get('/api/auth/me')).body).toMatchObject({ isAuthenticated: false });
  });

  it('a generated bootstrap password must be replaced too; one from NIMBUS_IDENTITY_ADMIN_PASSWORD need not', async () => {
    h = await startWithSeededDefault(memoryStores, { generateBootstrapPassword: true });
    const generated = h.webApp.bootstrap.created ? h.webApp.bootstrap.generatedPassword : undefined;
    expect(generated).toBeTruthy();
    const admin = h.newClient();
    await admin.login(DEFAULT_ADMIN_EMAIL, generated!);
    expect((await admin.get('/api/endpoints')).body).toMatchObject({ error: 'PasswordChangeRequired' });
    await h.close();

    h = await startWithSeededDefault(memoryStores, {
      env: { NIMBUS_IDENTITY_ADMIN_PASSWORD: 'Operator!Chosen-Pass-42' },
    });
    const chosen = h.newClient();
    await chosen.login(DEFAULT_ADMIN_EMAIL, 'Operator!Chosen-Pass-42');
    expect((await chosen.get('/api/auth/me')).body).toMatchObject({ mustChangePassword: false });
    expect((await chosen.get('/api/endpoints')).status).toBe(200);
  });

  it('an administrator flags an account: when creating it, and by default when resetting its password', async () => {
    h = await startHarness(sqliteIdentityStores);
    const flagged = { email: 'new-hire@example.test', password: 'Initial!Hire-Pass-42' };
    const created = await h.admin.post('/api/users', { ...flagged, mustChangePassword: true });
    expect(created).toMatchObject({ status: 201, body: { mustChangePassword: true } });
    const hire = await h.signedIn(flagged);
    expect((await hire.get('/api/endpoints')).body).toMatchObject({ error: 'PasswordChangeRequired' });

    const readerId = ((await h.admin.get('/api/users')).body as Json[]).find((u) => u.email === READER.email)!
      .id as string;
    const reset = 'Reset!By-The-Admin-42';
    expect((await h.admin.post(`/api/users/${readerId}/reset-password`, { newPassword: reset })).status).toBe(
      204,
    );
    const reader = await h.signedIn({ email: READER.email, password: reset });
    expect((await reader.get('/api/endpoints')).body).toMatchObject({ error: 'PasswordChangeRequired' });
    const [audit] = (await h.stores.store.getMessageAudits(`user:${readerId}`)).filter(
      (a) => a.auditType === MessageAuditType.ResetPassword,
    );
    expect(dataOf(audit!)).toMatchObject({ mustChangePassword: true });

    const unflagged = 'Reset!Not-Flagged-42';
    const resetPlain = await h.admin.post(`/api/users/${readerId}/reset-password`, {
      newPassword: unflagged,
      mustChangePassword: false,
    });
    expect(resetPlain.status).toBe(204);
    const readerAgain = await h.signedIn({ email: READER.email, password: unflagged });
    expect((await readerAgain.get('/api/endpoints')).status).toBe(200);
    expect(((await h.admin.get('/api/users')).body as Json[]).find((u) => u.id === readerId)).toMatchObject({
      mustChangePassword: false,
    });
  });
});

requireChromium('forced password change in a browser');

describe.runIf(hasChromium)(
  'a password set for the user must be replaced before anything else works (browser)',
  () => {
    let h: Harness;
    let context: BrowserContext;
    let page: Page;
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-password-change-'));

    beforeAll(async () => {
      const uiDistDir = path.join(tmp, 'dist');
      buildUi(uiDistDir);
      h = await startHarness(memoryStores, { uiDistDir, webApp: { env: {} }, signIn: false });
      context = await launchChromium(path.join(tmp, 'profile'));
      page = context.pages()[0] ?? (await context.newPage());
    }, 180_000);
    afterAll(async () => {
      await context?.close();
      await h?.close();
      fs.rmSync(tmp, { recursive: true, force: true });
    });

    it('shows the change-password form instead of the page, then the page once a new password is chosen', async () => {
      await page.goto(`${h.url}/endpoints/Erp`);
      await page.waitForURL(/\/account\/login/, WAIT);
      await page.fill('input[name=email]', DEFAULT_ADMIN_EMAIL);
      await page.fill('input[name=password]', DEFAULT_ADMIN_PASSWORD);
      await page.click('button[type=submit]');
      const form = page.locator('[data-testid=choose-password]');
      await form.waitFor(WAIT);
      expect(await page.locator('nav.sidebar').count()).toBe(0);
      expect(await form.textContent()).toContain('documented default');

      await form.locator('input[name=currentPassword]').fill(DEFAULT_ADMIN_PASSWORD);
      await form.locator('input[name=newPassword]').fill('password1');
      await form.locator('button[type=submit]').click();
      await form.locator('.notice', { hasText: 'the new password needs' }).waitFor(WAIT);

      await form.locator('input[name=currentPassword]').fill(DEFAULT_ADMIN_PASSWORD);
      await form.locator('input[name=newPassword]').fill(CHOSEN);
      await form.locator('button[type=submit]').click();
      await page.locator('nav.sidebar').waitFor(WAIT);
      expect(new URL(page.url()).pathname).toBe('/endpoints/Erp');
      await page.locator('h1', { hasText: 'Erp' }).first().waitFor(WAIT);
      expect(await page.locator('[data-testid=choose-password]').count()).toBe(0);
      expect(await page.locator('.security-banner').count()).toBe(0);
      const api = new ApiClient(h.url);
      await api.login(DEFAULT_ADMIN_EMAIL, CHOSEN);
      expect((await api.get('/api/auth/me')).body).toMatchObject({ mustChangePassword: false });
    }, 90_000);
  },
);
