import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceBusAdministrationClient } from '@azure/service-bus';
import { type RunningEmulator, startEmulator } from '@nimbus/servicebus-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertCliBuilt, cleanEnv, runCli } from './support/cli-process.js';

describe('nimbus topology apply --transport servicebus (emulator)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'nimbus-topology-sb-'));
  let emulator: RunningEmulator;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    assertCliBuilt();
    emulator = await startEmulator({ port: 0 });
    const caFile = join(dir, 'ca.pem');
    writeFileSync(caFile, emulator.caPem!);
    env = cleanEnv({
      NIMBUS_SERVICEBUS_CONNECTION_STRING: emulator.connectionString,
      NIMBUS_SERVICEBUS_CA_FILE: caFile,
    });
  });

  afterAll(async () => {
    await emulator?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('provisions topics, subscriptions and route rules once, then reports no changes', async () => {
    const args = ['topology', 'apply', '--transport', 'servicebus', '--platform', '@nimbus/example-crm-erp'];
    const first = await runCli(args, env, 40_000);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('+ endpoint Erp');
    expect(first.stdout).toContain('+ route Crm --CustomerUpserted--> Erp');
    const admin = new ServiceBusAdministrationClient(emulator.connectionString, {
      tlsOptions: { ca: emulator.caPem! },
    } as never);
    expect(await admin.subscriptionExists('Erp', 'Erp')).toBe(true);
    expect(await admin.subscriptionExists('Erp', 'Erp.parked')).toBe(true);
    const rules = [];
    for await (const rule of admin.listRules('Erp', 'Erp')) rules.push(rule.name);
    expect(rules.filter((name) => name.startsWith('route.')).length).toBeGreaterThan(0);
    const second = await runCli([...args, '--json'], env, 40_000);
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toEqual({
      addedEndpoints: [],
      removedEndpoints: [],
      addedRoutes: [],
      removedRoutes: [],
    });
  }, 90_000);

  it('refuses a real connection string on the command line, and says where it goes', async () => {
    const refused = await runCli(
      [
        'topology',
        'apply',
        '--transport',
        'servicebus',
        '--platform',
        '@nimbus/example-crm-erp',
        '--servicebus-connection-string',
        'Endpoint=sb://x.servicebus.windows.net/;SharedAccessKeyName=k;SharedAccessKey=secret',
      ],
      cleanEnv(),
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('NIMBUS_SERVICEBUS_CONNECTION_STRING');
    const unconfigured = await runCli(
      ['topology', 'apply', '--transport', 'servicebus', '--platform', '@nimbus/example-crm-erp'],
      cleanEnv(),
    );
    expect(unconfigured.code).not.toBe(0);
    expect(unconfigured.stderr).toContain('NIMBUS_SERVICEBUS_NAMESPACE');
  });
});
