import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CSRF_COOKIE, CSRF_HEADER } from '@nimbus/webapp';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertCliBuilt, CliDaemon, cleanEnv } from './support/cli-process.js';
import { browserAvailable, openBrowser, signIn } from './support/operator-browser.js';
import { SEEDED_ADMIN_ENV } from './support/seeded-admin.js';

const RETRIED = /ErpThrottledError|ErpUnavailableError/;

interface EventRow {
  eventId: string;
  status: string;
  retry: { attempt: number; maxAttempts: number } | null;
  errorContent: { errorType: string | null } | null;
}

/**
 * The sample ERP throttles every 9th call (429, retry after 500 ms) and is down on every 13th (503); the retry
 * policy retries both and they complete. On the real `nimbus dev` stack, watched in chromium: such an event is
 * shown Retrying, never Failed; it forms no failure group, prints no `blocked:` line and raises no alert.
 */
describe.runIf(browserAvailable('nimbus dev retrying browser test'))(
  'nimbus dev: automatic retries are their own state (browser, webhook receiver, terminal)',
  () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'nimbus-dev-retrying-'));
    let dev: CliDaemon;
    let baseUrl: string;
    let context: BrowserContext;
    let page: Page;
    let cookie = '';
    let csrf = '';
    const hooks: string[] = [];
    const receiver = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (c: Buffer) => chunks.push(c));
      request.on('end', () => {
        hooks.push(Buffer.concat(chunks).toString('utf8'));
        response.writeHead(204).end();
      });
    });

    const api = async <T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> => {
      const response = await fetch(`${baseUrl}${path}`, {
        method: init.method ?? 'GET',
        headers: {
          cookie,
          [CSRF_HEADER]: csrf,
          ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      });
      if (!response.ok) throw new Error(`${path}: HTTP ${response.status} ${await response.text()}`);
      return (response.status === 204 ? undefined : await response.json()) as T;
    };

    beforeAll(async () => {
      assertCliBuilt();
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      const env = cleanEnv({
        ...SEEDED_ADMIN_ENV,
        NIMBUS_ALERTS_ALLOW_PRIVATE_WEBHOOKS: 'true',
        NIMBUS_ALERTS_EVERY_MS: '500',
      });
      dev = new CliDaemon(['dev', '--data-dir', dataDir, '--port', '0', '--traffic-interval', '150'], env);
      baseUrl = (await dev.waitFor(/NimBus dev ready at (http:\/\/\S+)/, 40_000))[1] as string;
      const login = await fetch(`${baseUrl}/account/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@local', password: 'Local!Admin123' }),
      });
      const cookies = login.headers.getSetCookie().map((c) => c.split(';')[0]!);
      cookie = cookies.join('; ');
      csrf = cookies.find((c) => c.startsWith(`${CSRF_COOKIE}=`))?.slice(CSRF_COOKIE.length + 1) ?? '';
      ({ context, page } = await openBrowser(dataDir));
    }, 60_000);

    afterAll(async () => {
      await context?.close();
      await dev?.stop();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('a throttled-then-completed event is shown Retrying, never Failed, and raises no alert', async () => {
      const { port } = receiver.address() as AddressInfo;
      const subscription = await api<{ id: string }>('/api/endpoints/Erp/alert-subscriptions', {
        method: 'POST',
        body: {
          channel: 'webhook',
          url: `http://127.0.0.1:${port}/hooks`,
          secret: 'a-secret-of-at-least-16-chars',
          triggers: ['NewFailureGroup', 'SessionBlocked'],
          blockedMinutes: 1,
        },
      });
      await signIn(page, baseUrl, '/endpoints/Erp', 'admin@local', 'Local!Admin123');
      // Every 50 ms, every status badge on the page with the event it belongs to.
      await page.evaluate(() => {
        const seen: [string, string][] = [];
        (globalThis as unknown as { seen: typeof seen }).seen = seen;
        setInterval(() => {
          for (const badge of Array.from(document.querySelectorAll('[data-status]'))) {
            const link = badge.closest('tr')?.querySelector('a[href*="/events/"]');
            if (link) seen.push([link.textContent ?? '', badge.getAttribute('data-status') ?? '']);
          }
        }, 50);
      });
      const retried = new Set<string>();
      const groupsSeen = new Set<string>();
      const deadline = Date.now() + 25_000;
      while (Date.now() < deadline) {
        const page1 = await api<{ events: EventRow[] }>(
          '/api/endpoints/Erp/events?status=Failed&pageSize=200',
        );
        for (const e of page1.events) if (e.retry) retried.add(e.eventId);
        for (const g of await api<{ errorType: string }[]>('/api/endpoints/Erp/failure-groups'))
          groupsSeen.add(g.errorType);
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(retried.size, 'the sample ERP throttled or was unavailable during the run').toBeGreaterThan(0);
      // They completed on a retry.
      const completed: string[] = [];
      for (const id of retried) {
        const detail = await api<{ event: { status: string } }>(`/api/endpoints/Erp/events/${id}`);
        if (detail.event.status === 'Completed') completed.push(id);
      }
      expect(completed.length).toBeGreaterThan(0);
      const seen = await page.evaluate(() => (globalThis as unknown as { seen: [string, string][] }).seen);
      const shown = seen.filter(([id]) => completed.includes(id));
      expect(shown.filter(([, status]) => status === 'Failed')).toEqual([]);
      expect(shown.some(([, status]) => status === 'Retrying')).toBe(true);
      expect([...groupsSeen].filter((t) => RETRIED.test(t))).toEqual([]);
      console.info(
        `retried events seen: ${retried.size}, completed on a retry: ${completed.length}, badge samples of them: ${shown.length} (Retrying: ${shown.filter(([, s]) => s === 'Retrying').length})`,
      );
      expect(dev.stdout.split('\n').filter((l) => l.startsWith('blocked:') && RETRIED.test(l))).toEqual([]);
      // The loop and the receiver work: a test alert arrives; nothing about the retried failures does.
      await api(`/api/endpoints/Erp/alert-subscriptions/${subscription.id}/test`, { method: 'POST' });
      await expect
        .poll(() => hooks.some((h) => h.includes('"trigger":"Test"')), { timeout: 10_000 })
        .toBe(true);
      expect(hooks.filter((h) => RETRIED.test(h))).toEqual([]);
    }, 90_000);
  },
);
