import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertCliBuilt, CliDaemon, runCli } from './support/cli-process.js';

describe('nimbus resolver and nimbus webapp (compiled bin, SQLite)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'nimbus-services-'));
  const daemons: CliDaemon[] = [];

  beforeAll(() => assertCliBuilt());
  afterAll(async () => {
    await Promise.all(daemons.map((d) => d.stop()));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses to start on an unmigrated store by default (VerifyOnly, exit 3), naming the migrations', async () => {
    const result = await runCli(['resolver', '--data-dir', dataDir]);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/unapplied migration\(s\): 0001_initial/);
  });

  it('starts after `nimbus store migrate`, prints readiness and stops on SIGTERM with exit 0', async () => {
    expect((await runCli(['store', 'migrate', '--data-dir', dataDir])).code).toBe(0);
    const resolver = new CliDaemon(['resolver', '--data-dir', dataDir]);
    daemons.push(resolver);
    await resolver.waitFor(/NimBus resolver ready/, 20_000);

    const webapp = new CliDaemon(['webapp', '--data-dir', dataDir, '--port', '0']);
    daemons.push(webapp);
    const url = (await webapp.waitFor(/NimBus webapp ready at (http:\/\/\S+)/, 20_000))[1];
    // A deployment never gets the public default password: it is generated and shown once, in the sign-in
    // banner on stdout, never in a log line.
    const password = webapp.stdout.match(/Sign in as admin@local with password (\S+) \(generated/)?.[1];
    expect(password).toBeDefined();
    expect(webapp.stdout).not.toContain('Local!Admin123');
    expect(webapp.stdout.split(password as string).length).toBe(2);
    expect(webapp.stderr).not.toContain(password as string);
    const login = await fetch(`${url}/account/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@local', password }),
    });
    expect(login.status).toBe(200);

    const busyPort = Number(new URL(url as string).port);
    const taken = await runCli(['webapp', '--data-dir', dataDir, '--port', String(busyPort)]);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain(`Port ${busyPort} on 127.0.0.1 is in use; pass --port`);

    expect(await webapp.stop()).toBe(0);
    expect(await resolver.stop()).toBe(0);
    expect(resolver.stdout).toContain('NimBus resolver stopped.');
  }, 45_000);
});
