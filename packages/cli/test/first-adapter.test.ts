import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertCliBuilt, CliDaemon, cleanEnv, eventually, runCli } from './support/cli-process.js';

// The compiled files docs/first-adapter.md quotes (sources in examples/crm-erp/src/first-adapter/).
const exampleDist = fileURLToPath(new URL('../../../examples/crm-erp/dist/first-adapter/', import.meta.url));
const platformModule = join(exampleDist, 'platform.js');
const adapterScript = join(exampleDist, 'warehouse-adapter.js');

interface Row {
  eventId: string;
  sessionId: string;
  resolutionStatus: string;
}

describe('docs/first-adapter.md: a user platform under nimbus dev, an adapter process, publish and fix from the CLI', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'nimbus-first-adapter-'));
  const env = cleanEnv({ NIMBUS_DATA_DIR: dataDir });
  let dev: CliDaemon;
  let adapter: CliDaemon;

  const listWarehouse = async (): Promise<Row[]> => {
    const result = await runCli(['events', 'list', '--endpoint', 'Warehouse', '--json'], env);
    if (result.code !== 0) throw new Error(result.stderr);
    return JSON.parse(result.stdout) as Row[];
  };
  const statusOf = async (orderId: string) =>
    (await listWarehouse()).find((row) => row.sessionId === orderId)?.resolutionStatus;

  beforeAll(async () => {
    assertCliBuilt();
    expect(existsSync(adapterScript), `${adapterScript} is built by tsc -b`).toBe(true);
    dev = new CliDaemon(['dev', '--platform', platformModule, '--port', '0'], env);
    await dev.waitFor(/NimBus dev ready at/, 30_000);
    adapter = new CliDaemon([], env, adapterScript);
    await adapter.waitFor(/Warehouse adapter running/, 15_000);
  }, 50_000);

  afterAll(async () => {
    await adapter?.stop();
    await dev?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is quoted verbatim by docs/first-adapter.md', () => {
    const doc = readFileSync(new URL('../../../docs/first-adapter.md', import.meta.url), 'utf8');
    for (const file of ['platform.ts', 'warehouse-adapter.ts']) {
      const source = readFileSync(
        new URL(`../../../examples/crm-erp/src/first-adapter/${file}`, import.meta.url),
        'utf8',
      );
      expect(doc, `docs/first-adapter.md quotes ${file}`).toContain(source);
    }
  });

  it('runs the user platform without the sample', () => {
    expect(dev.stdout).toContain('topology: + endpoint Warehouse');
    expect(dev.stdout).toContain('topology: + route Shop --OrderPlaced--> Warehouse');
    expect(dev.stdout).not.toContain('[sample]');
  });

  it('an order published with `nimbus publish` is reserved by the adapter and Completed', async () => {
    const publish = await runCli(
      [
        'publish',
        'OrderPlaced',
        '--platform',
        platformModule,
        '--endpoint',
        'Shop',
        '--payload',
        '{"orderId":"O-1","sku":"SKU-1","quantity":3}',
      ],
      env,
    );
    expect(publish.code).toBe(0);
    expect(publish.stdout).toContain('session O-1');
    await adapter.waitFor(/Warehouse reserved 3 x SKU-1 for O-1/, 15_000);
    await eventually(
      async () => ((await statusOf('O-1')) === 'Completed' ? true : undefined),
      15_000,
      'O-1 Completed',
    );
  }, 30_000);

  it('an order the warehouse cannot serve blocks; resubmitting it with a smaller quantity completes it', async () => {
    const args = ['publish', 'OrderPlaced', '--platform', platformModule, '--endpoint', 'Shop'];
    expect(
      (await runCli([...args, '--payload', '{"orderId":"O-2","sku":"SKU-1","quantity":50}'], env)).code,
    ).toBe(0);
    const failed = await eventually(
      async () =>
        (await listWarehouse()).find((r) => r.sessionId === 'O-2' && r.resolutionStatus === 'Failed'),
      15_000,
      'O-2 Failed',
    );
    const show = await runCli(['events', 'show', 'Warehouse', failed.eventId], env);
    expect(show.stdout).toContain('Only 7 of SKU-1 left, order needs 50.');

    const fix = await runCli(['events', 'resubmit', 'Warehouse', failed.eventId, '--set', 'quantity=5'], env);
    expect(fix.code).toBe(0);
    await adapter.waitFor(/Warehouse reserved 5 x SKU-1 for O-2/, 15_000);
    await eventually(
      async () => ((await statusOf('O-2')) === 'Completed' ? true : undefined),
      15_000,
      'O-2 Completed',
    );
  }, 45_000);

  it('refuses an event that does not match its schema with exit 2, naming the field', async () => {
    const bad = await runCli(
      [
        'publish',
        'OrderPlaced',
        '--platform',
        platformModule,
        '--endpoint',
        'Shop',
        '--payload',
        '{"orderId":"O-3"}',
      ],
      env,
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('sku');
  });
});
