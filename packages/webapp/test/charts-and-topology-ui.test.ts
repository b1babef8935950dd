import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MessageType, systemClock } from '@nimbus/core';
import { EndpointRole } from '@nimbus/message-store';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { DEFAULT_ADMIN_EMAIL, DEFAULT_ADMIN_PASSWORD } from '../src/index.js';
import { buildUi, hasChromium, launchChromium, requireChromium } from './support/browser.js';
import { generatedPlatform } from './support/generated-platform.js';
import { type Harness, startHarness } from './support/harness.js';
import { ERP } from './support/seed.js';
import { sqliteStores } from './support/store-factories.js';

const WAIT = { timeout: 15_000 };
requireChromium('charts and topology UI test');

/**
 * The WebApp's time stands still half-way through the current minute, so the running minute bucket has
 * 30 s of its 60 (near the real time: the browser keeps the session cookie, whose expiry follows this clock).
 */
const MINUTE_START = Math.floor(Date.now() / 60_000) * 60_000;
const NOW = MINUTE_START + 30_000;
const fixedClock = { now: () => NOW, sleep: systemClock.sleep };

async function signIn(page: Page, url: string, path: string): Promise<void> {
  await page.goto(`${url}${path}`);
  await page.waitForURL(/\/account\/login/, WAIT).catch(async (error) => {
    throw new Error(`no sign-in page: at ${page.url()}, ${await page.locator('body').textContent()}`, {
      cause: error,
    });
  });
  await page.fill('input[name=email]', DEFAULT_ADMIN_EMAIL);
  await page.fill('input[name=password]', DEFAULT_ADMIN_PASSWORD);
  await page.click('button[type=submit]');
  await page.waitForURL(new RegExp(`${path}$`), WAIT).catch(async (error) => {
    throw new Error(
      `sign-in did not reach ${path}: at ${page.url()}, ${await page.locator('body').textContent()}`,
      {
        cause: error,
      },
    );
  });
}

interface Box {
  readonly what: string;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** Every pair of boxes that share area (touching edges do not count). */
function overlaps(boxes: readonly Box[]): string[] {
  const found: string[] = [];
  for (const [i, a] of boxes.entries())
    for (const b of boxes.slice(i + 1))
      if (a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height)
        found.push(`${a.what} overlaps ${b.what}`);
  return found;
}

async function topologyBoxes(page: Page): Promise<Box[]> {
  const boxesOf = (selector: string, name: string) =>
    page.locator(selector).evaluateAll(
      (elements, attribute) =>
        elements.map((element) => {
          const rect = element.querySelector('rect')!.getBoundingClientRect();
          const label = element.getAttribute(attribute) ?? element.textContent ?? '';
          return { what: label, x: rect.x, y: rect.y, width: rect.width, height: rect.height };
        }),
      name,
    );
  return [
    ...(await boxesOf('.topology-node', 'data-endpoint')).map((b) => ({ ...b, what: `node ${b.what}` })),
    ...(await boxesOf('.topology-edge-label', 'data-none')).map((b) => ({ ...b, what: `label ${b.what}` })),
  ];
}

describe.runIf(hasChromium)('charts and topology in a real browser', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-charts-'));
  const uiDistDir = path.join(tmp, 'dist');
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    buildUi(uiDistDir);
    context = await launchChromium(path.join(tmp, 'profile'), { width: 1366, height: 900 });
    page = context.pages()[0] ?? (await context.newPage());
  }, 120_000);
  afterAll(async () => {
    await context?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  describe('metrics', () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startHarness(sqliteStores, { uiDistDir, webApp: { clock: fixedClock } });
      let n = 0;
      const put = (atSeconds: number, messageType: MessageType, processingTimeMs: number | null) =>
        h.stores.store.storeMessage({
          eventId: `chart-${++n}`,
          messageId: `chart-${n}-m`,
          endpointId: messageType === MessageType.EventRequest ? 'Crm' : ERP,
          enqueuedTimeUtc: new Date(MINUTE_START + atSeconds * 1000),
          messageType,
          eventTypeId: 'CustomerChanged',
          sessionId: `chart-session-${n}`,
          from: 'Crm',
          to: ERP,
          endpointRole: EndpointRole.Subscriber,
          processingTimeMs,
          messageContent: { eventContent: null, errorContent: null },
        });
      // Two minutes ago, one minute ago, and the running minute (seconds from its start).
      await put(-110, MessageType.ResolutionResponse, 120);
      await put(-100, MessageType.ResolutionResponse, 80);
      await put(-55, MessageType.ResolutionResponse, 200);
      await put(-54, MessageType.ErrorResponse, 400);
      // The running minute: three handled so far. The old chart drew this bucket as a drop.
      for (const second of [5, 6, 7]) await put(second, MessageType.ResolutionResponse, 50);
      await put(8, MessageType.EventRequest, null);
    });
    afterAll(async () => {
      await h?.close();
    });

    it('draws throughput, failures and latency per endpoint with axes, units and legend; the running bucket is not a drop', async () => {
      onTestFailed(async () => {
        console.error('metrics page at failure:', await page.locator('main').textContent());
      });
      await signIn(page, h.url, '/charts');
      await page.click('button:text-is("1h")');
      const throughput = page.locator('[data-testid=chart-throughput]');
      await throughput.locator('.recharts-cartesian-grid').waitFor(WAIT);
      for (const [testId, unit] of [
        ['chart-throughput', 'events per minute'],
        ['chart-failures', 'failures per minute'],
        ['chart-latency', 'ms'],
      ] as const) {
        const chart = page.locator(`[data-testid=${testId}]`);
        // Recharts draws axis titles beside the axis layers; the y title is rotated.
        const yTitle = chart.locator('.recharts-label', { hasText: new RegExp(`^${unit}$`) });
        expect(await yTitle.getAttribute('transform')).toMatch(/^rotate\(-90/);
        await chart.locator('.recharts-label', { hasText: 'time (local)' }).waitFor(WAIT);
        expect(
          await chart.locator('.recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value').count(),
        ).toBeGreaterThan(2);
        expect(
          await chart.locator('.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value').count(),
        ).toBeGreaterThan(1);
        const legend = await chart.locator('.recharts-legend-item-text').allTextContents();
        expect(legend).toEqual(['Crm', 'Erp']);
      }
      // The running minute is a hollow "so far" point at 3, above the zero line, not the end of the line.
      const soFar = throughput.locator('.so-far-dot[data-series=Erp]');
      expect(await soFar.getAttribute('data-value')).toBe('3');
      expect(await centreY(soFar)).toBeLessThan(await zeroTickY(throughput));
      await page.locator('.hint', { hasText: 'running minute: 30 of 60 s counted so far' }).waitFor(WAIT);
      // The latency line has no point where nothing was handled (a gap, not 0 ms): only 10:28 and 10:29.
      const latencyDot = page.locator('[data-testid=chart-latency] .so-far-dot[data-series=Erp]');
      expect(await latencyDot.getAttribute('data-value')).toBe('50');
      // The legend hides and shows an endpoint.
      await throughput.locator('.recharts-legend-item', { hasText: 'Erp' }).click();
      await expect.poll(() => soFar.count(), WAIT).toBe(0);
      await throughput.locator('.recharts-legend-item', { hasText: 'Erp' }).click();
      await expect.poll(() => soFar.count(), WAIT).toBe(1);
    }, 60_000);
  });

  describe('topology', () => {
    it('lays out the sample platform: Crm → CustomerChanged → Erp', async () => {
      const h = await startHarness(sqliteStores, { uiDistDir });
      try {
        await signIn(page, h.url, '/topology');
        await page.locator('.topology-node[data-endpoint=Erp]').waitFor(WAIT);
        expect(
          await page.locator('.topology-edge[data-source=Crm][data-target=Erp] tspan').allTextContents(),
        ).toEqual(['CustomerChanged']);
        const crm = (await page.locator('.topology-node[data-endpoint=Crm] rect').boundingBox())!;
        const erp = (await page.locator('.topology-node[data-endpoint=Erp] rect').boundingBox())!;
        expect(crm.x + crm.width).toBeLessThan(erp.x); // producer left of consumer
        expect(overlaps(await topologyBoxes(page))).toEqual([]);
      } finally {
        await h.close();
      }
    });

    it('keeps a 20-endpoint platform readable: every route labelled once, no label or node box overlaps another', async () => {
      const h = await startHarness(sqliteStores, { uiDistDir, webApp: { platform: generatedPlatform() } });
      try {
        await signIn(page, h.url, '/topology');
        await page.locator('.topology-node[data-endpoint=Reporting4]').waitFor(WAIT);
        const topology = (await h.admin.get('/api/topology')).body as {
          routes: { source: string; eventTypeId: string; target: string }[];
        };
        expect(topology.routes.length).toBe(84);
        expect(await page.locator('.topology-node').count()).toBe(20);
        // Each route is its event type's line in the label of its producer → consumer arrow, once.
        const drawn = await page
          .locator('.topology-edge')
          .evaluateAll((edges) =>
            edges.flatMap((edge) =>
              Array.from(edge.querySelectorAll('tspan'), (line) => line).map(
                (line) =>
                  `${edge.getAttribute('data-source')} ${line.textContent} ${edge.getAttribute('data-target')}`,
              ),
            ),
          );
        expect(drawn.sort()).toEqual(
          topology.routes.map((r) => `${r.source} ${r.eventTypeId} ${r.target}`).sort(),
        );
        const boxes = await topologyBoxes(page);
        expect(boxes.length).toBe(20 + (await page.locator('.topology-edge').count()));
        expect(overlaps(boxes)).toEqual([]);
        // Each label's text fits its box (measured in the browser, not guessed).
        const clipped = await page.locator('.topology-edge-label').evaluateAll((labels) =>
          labels
            .filter((label) => {
              const box = label.querySelector('rect')!.getBoundingClientRect();
              const text = label.querySelector('text')!.getBoundingClientRect();
              return (
                text.left < box.left ||
                text.right > box.right ||
                text.top < box.top ||
                text.bottom > box.bottom
              );
            })
            .map((label) => label.textContent),
        );
        expect(clipped).toEqual([]);
      } finally {
        await h.close();
      }
    }, 60_000);
  });
});

async function centreY(locator: Locator): Promise<number> {
  const box = (await locator.boundingBox())!;
  return box.y + box.height / 2;
}

/** The vertical position of the y axis's "0" tick: the chart's zero line. */
async function zeroTickY(chart: Locator): Promise<number> {
  const ticks = await chart
    .locator('.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value')
    .evaluateAll((texts) =>
      texts.map((text) => {
        const box = text.getBoundingClientRect();
        return { value: text.textContent?.trim(), y: box.y + box.height / 2 };
      }),
    );
  const zero = ticks.find((tick) => tick.value === '0');
  if (!zero) throw new Error(`no 0 tick on the y axis: ${JSON.stringify(ticks)}`);
  return zero.y;
}
