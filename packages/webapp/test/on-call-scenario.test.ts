import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD } from '../src/index.js';
import { buildUi, hasChromium, launchChromium, requireChromium } from './support/browser.js';
import { CustomerChanged, type LiveStack, startLiveStack } from './support/live-stack.js';

const WAIT = { timeout: 20_000 };
const DRAIN = { timeout: 45_000 };
const images = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../docs/images');
requireChromium('on-call scenario browser test');

const CUSTOMERS = Array.from({ length: 10 }, (_, i) => `cust-${String(i + 1).padStart(2, '0')}`);
const vatOf = (customerId: string) => `NL${customerId.slice(-2).padStart(9, '0')}B01`;
const SIGNATURE = 'Error: VAT number <value> of customer <id> is not registered';
const FIXED_VAT = 'NL123456789B01';

/**
 * The whole on-call scenario on the real stack (memory transport, the Erp and Billing endpoint hosts, the
 * Resolver, a SQLite store, the WebApp) in real chromium: a failure group of 20 events across 10 sessions
 * appears live; the operator opens it, sees why, fixes one event with a validated edit and resubmits the
 * rest as a group; the progress shows live, every session drains in order, and the audit has every action.
 */
describe.runIf(hasChromium)('on-call scenario in a real browser over the real stack', () => {
  let stack: LiveStack;
  let context: BrowserContext;
  let page: Page;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-oncall-'));

  beforeAll(async () => {
    buildUi(path.join(tmp, 'dist'));
    stack = await startLiveStack({ uiDistDir: path.join(tmp, 'dist'), withBilling: true });
    context = await launchChromium(path.join(tmp, 'profile'), { width: 1366, height: 900 });
    page = context.pages()[0] ?? (await context.newPage());
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await stack?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('a failure group of 20 events in 10 sessions is fixed by one validated edit and one group resubmit', async () => {
    onTestFailed(() => {
      console.error('handled:', JSON.stringify(stack.handledAll));
    });
    await page.goto(`${stack.url}/failure-groups`);
    await page.waitForURL(/\/account\/login/, WAIT);
    await page.fill('input[name=email]', DEFAULT_ADMIN_EMAIL);
    await page.fill('input[name=password]', DEFAULT_ADMIN_PASSWORD);
    await page.click('button[type=submit]');
    await page.waitForURL(/\/failure-groups$/, WAIT);
    await page.locator('.live.on').waitFor(WAIT);
    await page.locator('[data-testid=failure-groups] td.empty').waitFor(WAIT);
    await page.evaluate(() => {
      (globalThis as unknown as { noReload: boolean }).noReload = true;
    });

    // The VAT registry is down: every first event of a session fails at both endpoints, the second is parked.
    stack.vatRegistryUp = false;
    for (const customerId of CUSTOMERS) {
      for (const revision of [1, 2]) {
        await stack.crm.publish(CustomerChanged, { customerId, revision, vatNumber: vatOf(customerId) });
      }
    }
    const group = page.locator(`[data-testid=failure-groups] tr[data-signature="${SIGNATURE}"]`);
    await expect.poll(() => group.locator('[data-testid=group-events]').textContent(), WAIT).toBe('20');
    expect(await group.locator('[data-testid=group-sessions]').textContent()).toBe('10');
    expect(await group.textContent()).toContain('Billing, Erp');
    await group
      .locator('.example', { hasText: /VAT number 'NL\d+B01' of customer cust-\d\d is not registered/ })
      .waitFor(WAIT);
    await page.screenshot({ path: path.join(images, 'failure-groups.png'), fullPage: true });

    // The endpoint page says why each session is blocked, for how long, and how many wait behind it.
    await page.click('nav a:text-is("Endpoints")');
    await page.click('a:text-is("Erp")');
    const blocked = page.locator(`[data-testid=blocked-sessions] tr[data-session-id="${CUSTOMERS[0]}"]`);
    await blocked
      .locator('[data-testid=blocking-error]', { hasText: `customer ${CUSTOMERS[0]} is not registered` })
      .waitFor(WAIT);
    expect(await blocked.locator('[data-testid=parked]').textContent()).toBe('1 deferred, 0 pending');
    expect(await blocked.locator('[data-testid=blocked-for]').textContent()).toMatch(/^\d+ (s|min)$/);
    expect(await page.locator('[data-testid=blocked-sessions] tr[data-session-id]').count()).toBe(10);
    // The endpoint's own failure groups: Erp's half of the group.
    await page.click('a:text-is("Failure groups on Erp")');
    const erpGroup = page.locator(`[data-testid=failure-groups] tr[data-signature="${SIGNATURE}"]`);
    await expect.poll(() => erpGroup.locator('[data-testid=group-events]').textContent(), WAIT).toBe('10');
    expect(await erpGroup.locator('[data-testid=group-sessions]').textContent()).toBe('10');
    expect(await erpGroup.locator('td').nth(1).textContent()).toBe('Erp');
    await page.click('nav a:text-is("Failure groups")');

    // Open the group: its events at both endpoints, each with the error it reported.
    await group.locator('button', { hasText: 'Open' }).click();
    const listed = page.locator('[data-testid=group-events-list] tr[data-event-id]');
    await expect.poll(() => listed.count(), WAIT).toBe(20);
    const firstAtErp = page
      .locator('[data-testid=group-events-list] tr', { hasText: CUSTOMERS[0]! })
      .locator('a[href^="/endpoints/Erp/events/"]');
    const editedEventId = (await firstAtErp.textContent()) ?? '';
    await firstAtErp.click();

    // Why, at a glance: error type, message, stack, and the producer (not the last hop).
    await page.waitForURL(new RegExp(`/endpoints/Erp/events/${editedEventId}$`), WAIT);
    await page.locator('[data-testid=error-type]', { hasText: 'Error' }).waitFor(WAIT);
    await page
      .locator('[data-testid=error-text]', { hasText: `customer ${CUSTOMERS[0]} is not registered` })
      .waitFor(WAIT);
    expect(await page.locator('[data-testid=stack-trace]').textContent()).toContain('is not registered');
    expect(await page.locator('[data-testid=producer]').textContent()).toBe('Crm');

    // The registry is back. This customer's number was also wrong: a validated edit fixes it.
    stack.vatRegistryUp = true;
    await page.click('button:text-is("Resubmit with changes")');
    const editor = page.locator('textarea[aria-label=payload]');
    const stored = JSON.parse(await editor.inputValue()) as Record<string, unknown>;
    expect(stored).toEqual({ customerId: CUSTOMERS[0], revision: 1, vatNumber: vatOf(CUSTOMERS[0]!) });
    await editor.fill(JSON.stringify({ ...stored, revision: 'one' }, null, 2));
    await page.locator('[aria-label="payload problems"] li', { hasText: 'revision' }).waitFor(WAIT);
    expect(await page.locator('button:text-is("Send")').isDisabled()).toBe(true);
    await editor.fill(JSON.stringify({ ...stored, vatNumber: FIXED_VAT }, null, 2));
    await page.locator('[data-testid=edit-diff] [data-diff=added]', { hasText: FIXED_VAT }).waitFor(WAIT);
    await page
      .locator('[data-testid=edit-diff] [data-diff=removed]', { hasText: vatOf(CUSTOMERS[0]!) })
      .waitFor(WAIT);
    await page.click('button:text-is("Send")');
    await page.locator('.notice', { hasText: 'Edited payload sent' }).waitFor(WAIT);
    await expect
      .poll(() => page.locator('h1 [data-status]').getAttribute('data-status'), WAIT)
      .toBe('Completed');
    await page.locator('[data-testid=payload-diff] [data-diff=added]', { hasText: FIXED_VAT }).waitFor(WAIT);

    // Back to the group: 19 events left in 10 sessions; resubmit them all, with a confirmation that says so.
    await page.click('nav a:text-is("Failure groups")');
    await expect.poll(() => group.locator('[data-testid=group-events]').textContent(), WAIT).toBe('19');
    expect(await group.locator('[data-testid=group-sessions]').textContent()).toBe('10');
    await group.locator('button', { hasText: 'Resubmit all' }).click();
    const confirm = page.locator('[data-testid=confirm-group-action]');
    await confirm.locator('h2', { hasText: 'Resubmit 19 events in 10 sessions?' }).waitFor(WAIT);
    expect(await confirm.locator('[data-testid=confirm-scope]').textContent()).toContain('on Billing, Erp');
    await confirm.locator('textarea').fill('VAT registry is back');
    await confirm.locator('button', { hasText: 'Confirm resubmit of 19 events' }).click();

    // Progress, live, until the job is done; then the group is gone.
    const progress = page.locator('[data-testid=bulk-progress]');
    await progress.waitFor(WAIT);
    await expect.poll(() => progress.getAttribute('data-state'), WAIT).toBe('completed');
    expect(await progress.textContent()).toContain('19 of 19 (100%)');
    expect(await progress.textContent()).toContain('19 sent · 0 refused · 0 failed · 0 remaining');
    await page.locator('[data-testid=failure-groups] td.empty').waitFor(DRAIN);

    // Every session drains in order at both endpoints: the failed first event again, then the parked one.
    for (const endpointId of ['Erp', 'Billing']) {
      await expect
        .poll(async () => {
          const { events } = await stack.store.getEventsByFilter({ filter: { endpointId }, maxItems: 100 });
          return events.filter((e) => e.endpointId === endpointId).map((e) => e.resolutionStatus);
        }, DRAIN)
        .toEqual(Array(20).fill('Completed'));
      for (const customerId of CUSTOMERS) {
        const calls = stack.handledAll
          .filter((h) => h.endpoint === endpointId && h.customerId === customerId)
          .map((h) => `${h.revision}:${h.ok ? 'ok' : 'failed'}`);
        expect(calls, `${endpointId} ${customerId}`).toEqual(['1:failed', '1:ok', '2:ok']);
      }
    }
    const editedCall = stack.handledAll.find(
      (h) => h.endpoint === 'Erp' && h.customerId === CUSTOMERS[0] && h.ok,
    );
    expect(editedCall?.vatNumber).toBe(FIXED_VAT);

    // The audit has every action: the edit, the group job, and one resubmit per event of it.
    const audits = (await page.evaluate(async () => (await fetch('/api/audits?pageSize=200')).json())) as {
      audits: {
        auditType: string;
        auditorName: string;
        eventId: string;
        endpointId: string | null;
        data: string | null;
      }[];
    };
    const dataOf = (a: { data: string | null }) => JSON.parse(a.data ?? '{}') as Record<string, unknown>;
    const edit = audits.audits.filter((a) => a.auditType === 'ResubmitWithChanges');
    expect(edit.map((a) => [a.eventId, a.endpointId, a.auditorName])).toEqual([
      [editedEventId, 'Erp', 'Administrator'],
    ]);
    const started = audits.audits.filter((a) => dataOf(a).action === 'bulkResubmit');
    expect(started).toHaveLength(1);
    const jobId = dataOf(started[0]!).jobId;
    // The job's row is written before it reads its events (the 202 answers at once): the 19 are on the job.
    expect(dataOf(started[0]!)).toMatchObject({
      comment: 'VAT registry is back',
      filter: { failureSignature: SIGNATURE },
    });
    const perEvent = audits.audits.filter((a) => a.auditType === 'Resubmit' && dataOf(a).bulkJobId === jobId);
    expect(perEvent).toHaveLength(19);
    expect(new Set(perEvent.map((a) => `${a.endpointId}/${a.eventId}`)).size).toBe(19);

    // The audit log page shows the same: every row naming the job (its start and one resubmit per event),
    // and the edit.
    await page.click('nav a:text-is("Administration")');
    await page.click('nav[aria-label=administration] a:text-is("Audit log")');
    await page.fill('form[aria-label="audit filters"] input[name=text]', String(jobId));
    await page.click('form[aria-label="audit filters"] button:text-is("Search")');
    const logRows = page.locator('[data-testid=audit-log] tbody tr[data-audit-type]');
    await expect.poll(() => logRows.count(), WAIT).toBe(20);
    expect(await page.locator('[data-testid=audit-log] tr[data-audit-type=Resubmit]').count()).toBe(20);
    await page.locator('[data-testid=audit-log] tr', { hasText: 'bulkResubmit' }).waitFor(WAIT);
    await page.fill('form[aria-label="audit filters"] input[name=text]', '');
    await page.selectOption('form[aria-label="audit filters"] select[name=auditType]', 'ResubmitWithChanges');
    await page.click('form[aria-label="audit filters"] button:text-is("Search")');
    const editRow = page.locator('[data-testid=audit-log] tbody tr[data-audit-type=ResubmitWithChanges]');
    await expect.poll(() => editRow.count(), WAIT).toBe(1);
    expect(await editRow.textContent()).toContain('Administrator');
    expect(await editRow.textContent()).toContain(FIXED_VAT);

    // The job is in the history: who, what, outcome.
    await page.click('nav a:text-is("Bulk operations")');
    const row = page.locator(`[data-testid=bulk-jobs] tr[data-job-id="${jobId}"]`);
    await row.locator('[data-testid=job-state]', { hasText: 'completed' }).waitFor(WAIT);
    expect(await row.textContent()).toContain('19 sent, 0 refused, 0 failed of 19');
    expect(await row.textContent()).toContain('Administrator');
    await page.screenshot({ path: path.join(images, 'bulk-operations.png'), fullPage: true });

    // A job whose WebApp stopped halfway shows as resumable; resumed, its events are now settled, so each is
    // refused with the reason instead of being counted as done.
    const leftBehind = perEvent.slice(0, 2).map((a) => ({
      endpointId: a.endpointId ?? '',
      eventId: a.eventId,
      sessionId: '',
      outcome: 'pending' as const,
      message: null,
      messageId: null,
    }));
    await stack.bulkJobStore.create(
      {
        jobId: 'job-left-behind',
        action: 'skip',
        endpointId: 'Erp',
        endpointIds: ['Billing', 'Erp'],
        filter: { failureSignature: SIGNATURE },
        createdBy: 'night-shift@example.test',
        startedBy: null,
        comment: null,
        total: 2,
        processed: 0,
        succeeded: 0,
        refused: 0,
        failed: 0,
        errors: [],
        state: 'running',
        cancelRequested: false,
        owner: 'a-stopped-instance',
        leaseUntil: Date.now() - 1000,
        createdAt: Date.now(),
        finishedAt: null,
      },
      leftBehind,
    );
    // Opened in the app (no reload), as a link to the job would.
    await page.evaluate(() => {
      window.history.pushState(null, '', '/bulk-jobs/job-left-behind');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await page.locator('[data-testid=bulk-state]', { hasText: 'interrupted (resumable)' }).waitFor(WAIT);
    await page.click('button:text-is("Resume (2 left)")');
    await page.locator('[data-testid=bulk-state]', { hasText: 'completed' }).waitFor(WAIT);
    const refusedItems = page.locator('[data-testid=bulk-items] tr[data-outcome=refused]');
    await expect.poll(() => refusedItems.count(), WAIT).toBe(2);
    expect(await refusedItems.first().textContent()).toMatch(
      /refused \(Event '.+' is Completed; skip needs Failed/,
    );
    expect(await page.evaluate(() => (globalThis as unknown as { noReload?: boolean }).noReload)).toBe(true);
  }, 180_000);
});
