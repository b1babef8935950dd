import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HeartbeatStatus } from '@nimbus/message-store';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD } from '../src/index.js';
import { buildUi, hasChromium, launchChromium, requireChromium } from './support/browser.js';
import { type Harness, READER, startHarness } from './support/harness.js';
import { sqliteStores } from './support/store-factories.js';

const WAIT = { timeout: 15_000 };
const images = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../docs/images');
requireChromium('administration UI test');

async function signIn(page: Page, url: string, user: { email: string; password: string }) {
  await page.goto(`${url}/account/login`);
  await page.fill('input[name=email]', user.email);
  await page.fill('input[name=password]', user.password);
  await page.click('button[type=submit]');
  await page.waitForURL((u) => !u.pathname.startsWith('/account/login'), WAIT);
}

/** Users and roles, the audit log and the heartbeat settings, driven in chromium over a real WebApp and SQLite. */
describe.runIf(hasChromium)('administration in a real browser', () => {
  let h: Harness;
  let context: BrowserContext;
  let page: Page;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-admin-ui-'));
  const ops = { email: 'ops@example.test', password: 'Ops!Passphrase-2026' };

  beforeAll(async () => {
    const uiDistDir = path.join(tmp, 'dist');
    buildUi(uiDistDir);
    h = await startHarness(sqliteStores, { uiDistDir });
    context = await launchChromium(path.join(tmp, 'profile'), { width: 1366, height: 900 });
    page = context.pages()[0] ?? (await context.newPage());
  }, 120_000);
  afterAll(async () => {
    await context?.close();
    await h?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('creates a user, changes roles, resets the password, disables, enables and deletes it', async () => {
    await signIn(page, h.url, { email: DEFAULT_ADMIN_EMAIL, password: DEFAULT_ADMIN_PASSWORD });
    await page.click('nav.sidebar a:text-is("Administration")');
    await page.waitForURL(/\/admin\/users$/, WAIT);
    const form = page.locator('form[aria-label="create user"]');
    await form.locator('input[name=newEmail]').fill(ops.email);
    await form.locator('input[name=newPassword]').fill('password1');
    await form.locator('select[name=newSiteRole]').selectOption('Contributor');
    await form.locator('button[type=submit]').click();
    // The server's password check is shown, and nothing is created.
    await page.locator('.error', { hasText: 'body.password' }).waitFor(WAIT);
    await form.locator('input[name=newPassword]').fill(ops.password);
    await form.locator('button[type=submit]').click();
    const row = page.locator(`[data-testid=users] tr[data-email="${ops.email}"]`);
    await row.waitFor(WAIT);
    expect(await row.locator('select').inputValue()).toBe('Contributor');

    await row.locator('select').selectOption('Reader');
    await page.locator('.notice', { hasText: `${ops.email} is now Reader site-wide.` }).waitFor(WAIT);
    const grant = page.locator('form[aria-label="endpoint role"]');
    await grant.locator('select[name=grantUser]').selectOption({ label: ops.email });
    await grant.locator('select[name=grantEndpoint]').selectOption('Erp');
    await grant.locator('select[name=grantRole]').selectOption('Owner');
    await grant.locator('button[type=submit]').click();
    await row.locator('td', { hasText: 'Erp: Owner' }).waitFor(WAIT);
    const stored = await h.stores.identityStore.findUserByEmail(ops.email);
    expect(stored?.siteRole).toBe('Reader');
    expect(await h.stores.identityStore.listEndpointRoles(stored!.id)).toMatchObject([
      { endpointId: 'Erp', role: 'Owner' },
    ]);
    await page.screenshot({ path: path.join(images, 'admin-users.png'), fullPage: true });

    const fresh = 'Ops!Fresh-Passphrase-77';
    await row.locator('button:text-is("Reset password")').click();
    await row.locator('input[name=resetPassword]').fill(fresh);
    await row.locator('button:text-is("Set password")').click();
    await page.locator('.notice', { hasText: 'was reset' }).waitFor(WAIT);
    expect((await h.newClient().post('/account/login', ops)).status).toBe(401);
    const opsClient = await h.signedIn({ email: ops.email, password: fresh });

    await row.locator('button:text-is("Disable")').click();
    await expect.poll(() => row.locator('[data-testid=user-state]').textContent(), WAIT).toBe('Disabled');
    expect((await opsClient.get('/api/endpoints')).status).toBe(401);
    expect(
      (await h.newClient().post('/account/login', { email: ops.email, password: fresh })).body,
    ).toMatchObject({
      error: 'AccountDisabled',
    });
    await row.locator('button:text-is("Enable")').click();
    await expect.poll(() => row.locator('[data-testid=user-state]').textContent(), WAIT).toBe('Active');
    // The signed-in Owner cannot disable or delete their own account from here.
    const me = page.locator(`[data-testid=users] tr[data-email="${DEFAULT_ADMIN_EMAIL}"]`);
    expect(await me.locator('button:text-is("Disable"), button:text-is("Delete")').count()).toBe(0);

    page.once('dialog', (dialog) => void dialog.accept());
    await row.locator('button:text-is("Delete")').click();
    await page.locator('.notice', { hasText: `${ops.email} was deleted.` }).waitFor(WAIT);
    await expect.poll(() => row.count(), WAIT).toBe(0);
    expect(await h.stores.identityStore.findUserByEmail(ops.email)).toBeNull();
  });

  it('the audit log shows those actions, filtered by action, who and text, and the filters are in the URL', async () => {
    await page.click('.subnav a:text-is("Audit log")');
    await page.waitForURL(/\/admin\/audit$/, WAIT);
    const rows = page.locator('[data-testid=audit-log] tbody tr[data-audit-type]');
    for (const type of ['DeleteUser', 'EnableUser', 'DisableUser', 'ResetPassword', 'GrantRole'])
      await page.locator(`[data-testid=audit-log] tr[data-audit-type=${type}]`).first().waitFor(WAIT);

    await page.selectOption('select[name=auditType]', 'DeleteUser');
    await page.fill('input[name=auditorName]', 'admin');
    await page.click('form[aria-label="audit filters"] button[type=submit]');
    await expect
      .poll(() => rows.evaluateAll((trs) => trs.map((t) => t.getAttribute('data-audit-type'))), WAIT)
      .toEqual(['DeleteUser']);
    expect(await rows.first().textContent()).toContain(ops.email);
    expect(page.url()).toContain('auditType=DeleteUser');
    await page.screenshot({ path: path.join(images, 'admin-audit-log.png'), fullPage: true });

    // A shared link opens with the same filters; the text filter searches inside the rows' data.
    await page.goto(`${h.url}/admin/audit?text=${encodeURIComponent(ops.email)}&auditType=GrantRole`);
    expect(await page.inputValue('input[name=text]')).toBe(ops.email);
    // The creation row names the e-mail (later role changes name the user id).
    await expect.poll(() => rows.count(), WAIT).toBe(1);
    await page.goto(`${h.url}/admin/audit?text=no-such-text-anywhere`);
    await page.locator('[data-testid=audit-log] td.empty').waitFor(WAIT);
  });

  it('heartbeat settings are saved in the store, audited, and shown again after a reload', async () => {
    await page.goto(`${h.url}/admin/heartbeat`);
    const form = page.locator('form[aria-label="heartbeat settings"]');
    // The form is seeded from the stored settings once they load; typing before that would be overwritten.
    await expect.poll(() => form.locator('input[name=intervalSeconds]').inputValue(), WAIT).not.toBe('');
    await form.locator('input[name=intervalSeconds]').fill('10');
    await form.locator('button[type=submit]').click();
    await form.locator('.error', { hasText: 'intervalSeconds' }).waitFor(WAIT);
    await form.locator('input[name=enabled]').check();
    await form.locator('input[name=intervalSeconds]').fill('60');
    await form.locator('input[name=timeoutSeconds]').fill('20');
    // Three missed beats until Off unless changed: Late at 80 s, Off two intervals later.
    expect(await form.locator('input[name=missedBeatsUntilOff]').inputValue()).toBe('3');
    await page.locator('[data-testid=overdue-rule]', { hasText: 'Late 80 s' }).waitFor(WAIT);
    await page.locator('[data-testid=overdue-rule]', { hasText: 'Off after 200 s' }).waitFor(WAIT);
    await form.locator('input[name=missedBeatsUntilOff]').fill('0');
    await form.locator('button[type=submit]').click();
    await form.locator('.error', { hasText: 'missedBeatsUntilOff' }).waitFor(WAIT);
    await form.locator('input[name=missedBeatsUntilOff]').fill('5');
    await page.locator('[data-testid=overdue-rule]', { hasText: 'Off after 320 s' }).waitFor(WAIT);
    await form.locator('button[type=submit]').click();
    await form.locator('.notice', { hasText: 'a probe every 60 s' }).waitFor(WAIT);
    await form.locator('.notice', { hasText: 'Off after 5 missed beats' }).waitFor(WAIT);
    expect(await h.stores.store.getHeartbeatSettings()).toMatchObject({
      enabled: true,
      intervalSeconds: 60,
      timeoutSeconds: 20,
      missedBeatsUntilOff: 5,
    });
    await page.reload();
    await expect.poll(() => form.locator('input[name=intervalSeconds]').inputValue(), WAIT).toBe('60');
    expect(await form.locator('input[name=missedBeatsUntilOff]').inputValue()).toBe('5');
    expect(await form.locator('input[name=enabled]').isChecked()).toBe(true);
    const audit = await h.admin.get('/api/audits?auditType=UpdateHeartbeatSettings');
    expect((audit.body as { audits: unknown[] }).audits).toHaveLength(1);
    // The heartbeat view applies the saved number: Erp answered 260 s ago, four missed beats (Off with three).
    const answered = new Date(Date.now() - 260_000);
    await h.stores.store.setHeartbeat({
      endpointId: 'Erp',
      heartbeat: {
        messageId: 'hb-admin-ui',
        startTime: answered,
        receivedTime: answered,
        endTime: answered,
        intervalSeconds: 60,
        sdkVersion: null,
        endpointHeartbeatStatus: HeartbeatStatus.On,
      },
    });
    const overview = (await h.admin.get('/api/heartbeat/overview')).body as {
      endpointId: string;
      status: string;
    }[];
    expect(overview.find((row) => row.endpointId === 'Erp')?.status).toBe('Late');
  });

  it('a Reader gets the server’s refusal on the administration pages, not just a hidden link', async () => {
    await page.click('button:text-is("Sign out")');
    await page.waitForURL(/\/account\/login/, WAIT);
    await signIn(page, h.url, READER);
    await page.goto(`${h.url}/admin/users`);
    await page.locator('.error', { hasText: 'needs the Owner role' }).waitFor(WAIT);
    expect(await page.locator('[data-testid=users] tbody tr').count()).toBe(0);
    await page.goto(`${h.url}/admin/heartbeat`);
    await page.locator('input[name=intervalSeconds]').fill('120');
    await page.click('form[aria-label="heartbeat settings"] button[type=submit]');
    await page.locator('.error', { hasText: 'needs the Owner role' }).waitFor(WAIT);
    expect((await h.stores.store.getHeartbeatSettings()).intervalSeconds).toBe(60);
  });
});
