import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MessageAuditType } from '@nimbus/message-store';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUi, hasChromium, launchChromium, requireChromium } from './support/browser.js';
import { type Harness, startHarness } from './support/harness.js';
import { OIDC_CLIENT, startOidcProvider, type TestAccount } from './support/oidc-provider.js';
import { ERP, FAILED_EVENT } from './support/seed.js';
import { memoryStores } from './support/store-factories.js';

const WAIT = { timeout: 20_000 };
const SESSION_MS = 6_000;
requireChromium('OIDC sign-in UI test');

const accounts: Record<string, TestAccount> = {
  alice: {
    sub: 'alice',
    email: 'alice@example.test',
    name: 'Alice',
    groups: ['nimbus-readers', 'erp-ops'],
  },
  bob: { sub: 'bob', email: 'bob@example.test', name: 'Bob', groups: ['marketing'] },
};

/** Sign-in with a real OpenID Connect provider on loopback, in chromium: mapping, refusal, expiry, sign-out. */
describe.runIf(hasChromium)('OIDC sign-in in a real browser', () => {
  let h: Harness;
  let provider: Awaited<ReturnType<typeof startOidcProvider>>;
  let context: BrowserContext;
  let page: Page;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-oidc-ui-'));

  beforeAll(async () => {
    const uiDistDir = path.join(tmp, 'dist');
    buildUi(uiDistDir);
    provider = await startOidcProvider(accounts);
    h = await startHarness(memoryStores, {
      uiDistDir,
      webApp: {
        oidc: {
          issuer: provider.issuer,
          clientId: OIDC_CLIENT.id,
          clientSecret: OIDC_CLIENT.secret,
          label: 'Sign in with the test provider',
          roleMapping: {
            claims: ['groups'],
            site: { 'nimbus-readers': 'Reader', 'nimbus-admins': 'Owner' },
            endpoints: { 'erp-ops': { [ERP]: 'Contributor' } },
          },
          sessionTtlMs: SESSION_MS,
          allowInsecureLoopbackIssuer: true,
        },
      },
    });
    provider.configure(h.url);
    context = await launchChromium(path.join(tmp, 'profile'), { width: 1280, height: 900 });
    page = context.pages()[0] ?? (await context.newPage());
  }, 180_000);
  afterAll(async () => {
    await context?.close();
    await h?.close();
    await provider?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const me = () =>
    page.evaluate(async () => (await fetch('/api/auth/me')).json()) as Promise<Record<string, unknown>>;
  const audits = async (type: string) =>
    (
      await h.stores.store.searchAudits({
        filter: { auditType: type as MessageAuditType },
        continuationToken: null,
        maxItems: 1000,
      })
    ).audits.map((a) => a.audit);

  /** Answers the provider's pages (login, consent) until it sends the browser back to the WebApp. */
  const throughProvider = async (login: string) => {
    const deadline = Date.now() + WAIT.timeout;
    while (!page.url().startsWith(h.url)) {
      if (Date.now() > deadline) {
        const text = await page
          .locator('body')
          .innerText()
          .catch(() => '');
        throw new Error(`still at ${page.url()}: ${text.slice(0, 300)}`);
      }
      await page.waitForLoadState('domcontentloaded').catch(() => undefined);
      const loginField = page.locator('input[name=login]');
      const consent = page.locator('button:has-text("Continue")');
      if (await loginField.isVisible().catch(() => false)) {
        await loginField.fill(login);
        await page.fill('input[name=password]', 'any password');
        await page.click('button[type=submit]');
      } else if (await consent.isVisible().catch(() => false)) {
        await consent.click();
      }
      await page.waitForTimeout(200);
    }
  };

  /** From the WebApp's sign-in page through the provider and back. */
  const signInAt = async (login: string, returnPath = '/endpoints') => {
    await page.goto(`${h.url}/account/login?returnUrl=${encodeURIComponent(returnPath)}`);
    await page.locator('[data-testid=oidc-sign-in]').click();
    await page.waitForURL((u) => !u.pathname.startsWith('/account/login'), WAIT);
    await throughProvider(login);
  };

  it('signs in with PKCE, maps groups to a site and an endpoint role, and audits the sign-in', async () => {
    await page.goto(`${h.url}/account/login`);
    await page.locator('[data-testid=oidc-sign-in]').waitFor(WAIT);
    expect(await page.locator('[data-testid=oidc-sign-in]').textContent()).toBe(
      'Sign in with the test provider',
    );
    await signInAt('alice');
    await page.waitForURL((u) => u.pathname === '/endpoints', WAIT);
    const user = await me();
    expect(user).toMatchObject({
      isAuthenticated: true,
      siteRole: 'Reader',
      endpointRoles: [{ endpointId: ERP, role: 'Contributor' }],
      signInMethod: 'oidc',
      email: 'alice@oidc.' + new URL(provider.issuer).host,
    });
    expect(user.displayName).toBe('Alice (alice@example.test)');
    const rows = await audits(MessageAuditType.SignIn);
    const row = rows.find((r) => r.auditorName.startsWith('alice@oidc.'));
    expect(JSON.parse(row!.data!)).toMatchObject({ via: 'oidc', matched: ['nimbus-readers', 'erp-ops'] });
    // The mapped Contributor role on Erp works through the API with the session the provider started.
    const comment = await page.evaluate(
      async ([erp, event]) => {
        const csrf = document.cookie
          .split('; ')
          .find((c) => c.startsWith('NimBus.Csrf='))!
          .split('=')[1]!;
        const answer = await fetch(`/api/endpoints/${erp}/events/${event}/comments`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
          body: JSON.stringify({ comment: 'from an OIDC user' }),
        });
        return answer.status;
      },
      [ERP, FAILED_EVENT] as const,
    );
    expect([200, 201, 204]).toContain(comment);
  }, 120_000);

  it('the session ends at its lifetime; signing in again comes back from the provider without a password, with the roles of now', async () => {
    accounts.alice!.groups = ['nimbus-readers'];
    await expect
      .poll(async () => (await me()).isAuthenticated, { timeout: SESSION_MS * 4, interval: 500 })
      .toBe(false);
    await signInAt('alice', '/');
    const user = await me();
    expect(user).toMatchObject({ isAuthenticated: true, siteRole: 'Reader', endpointRoles: [] });
  }, 120_000);

  it('signs out of the WebApp and of the provider', async () => {
    await page.goto(`${h.url}/`);
    await page.locator('button:has-text("Sign out")').click();
    await page.waitForURL((u) => u.href.startsWith(provider.issuer), WAIT);
    await page.locator('button[value=yes]').click();
    await page.waitForURL((u) => u.href.startsWith(`${h.url}/account/login`), WAIT);
    expect((await me()).isAuthenticated).toBe(false);
    expect((await audits(MessageAuditType.SignOut)).some((r) => r.auditorName.startsWith('Alice'))).toBe(
      true,
    );
    // The provider's session is over too: it asks for the login again.
    await page.locator('[data-testid=oidc-sign-in]').click();
    await page.locator('input[name=login]').waitFor(WAIT);
  }, 120_000);

  it('refuses a user none of whose groups is mapped, with a page that says why, and audits it', async () => {
    await throughProvider('bob');
    await page.waitForURL((u) => u.href.startsWith(`${h.url}/account/oidc/callback`), WAIT);
    expect(await page.locator('h1').textContent()).toBe('No access to NimBus');
    expect(await page.locator('[role=alert]').textContent()).toContain('bob@example.test');
    expect((await me()).isAuthenticated).toBe(false);
    const refused = (await audits(MessageAuditType.SignInFailed)).filter((r) =>
      r.auditorName.startsWith('bob@oidc.'),
    );
    expect(refused).toHaveLength(1);
    expect(refused[0]!.accessDenied).toBe(true);
  }, 120_000);
});
