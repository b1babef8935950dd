import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteDatabase } from '@nimbus/sql';
import { afterAll, describe, expect, it } from 'vitest';
import { assertCliBuilt, CliDaemon, eventually, runCli } from './support/cli-process.js';

// `nimbus dev` hosts sessions (the Resolver and the sample adapters): it takes the same lease options as
// `nimbus resolver` (issue 24), and they reach the transport every host of the process shares.

const LEASE_MS = 4_000;

describe('nimbus dev --lease-ms / --lease-renew-ms (compiled bin, SQLite)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'nimbus-dev-lease-'));
  let dev: CliDaemon | undefined;

  afterAll(async () => {
    await dev?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses a lease under 1 s and a renewal past half the lease before starting anything (exit 2)', async () => {
    assertCliBuilt();
    const short = await runCli(['dev', '--data-dir', dataDir, '--port', '0', '--lease-ms', '500']);
    expect(short.code).toBe(2);
    expect(short.stderr).toContain(
      "--lease-ms (NIMBUS_LEASE_MS) must be a whole number of milliseconds >= 1000; got '500'",
    );
    const late = await runCli([
      'dev',
      '--data-dir',
      dataDir,
      '--port',
      '0',
      '--lease-ms',
      '4000',
      '--lease-renew-ms',
      '3000',
    ]);
    expect(late.code).toBe(2);
    expect(late.stderr).toContain('--lease-renew-ms (3000) must be at most half the lease (--lease-ms 4000)');
  });

  it('leases the sessions it hosts for --lease-ms', {
    timeout: 90_000,
  }, async () => {
    dev = new CliDaemon([
      'dev',
      '--data-dir',
      dataDir,
      '--port',
      '0',
      '--traffic-interval',
      '200',
      '--lease-ms',
      String(LEASE_MS),
      '--lease-renew-ms',
      '1000',
    ]);
    await dev.waitFor(/NimBus dev ready at/, 60_000);
    const db = openSqliteDatabase(join(dataDir, 'transport.db'), { createDirectory: false });
    try {
      // Held sessions (a lease token, not yet lapsed) of the sample endpoints or the Resolver: each one's lease ends
      // at most LEASE_MS from now (the default would be 30 s).
      const held = await eventually(
        async () => {
          const now = Date.now();
          const rows = db
            .prepare(
              'SELECT input, locked_until FROM nimbus_transport_sessions WHERE lock_token IS NOT NULL AND locked_until > ?',
            )
            .all(now) as { input: string; locked_until: number }[];
          return rows.length > 0 ? { rows, now } : undefined;
        },
        60_000,
        'a held session',
      );
      for (const row of held.rows) expect(Number(row.locked_until) - held.now).toBeLessThanOrEqual(LEASE_MS);
    } finally {
      db.close();
    }
    expect(await dev.stop()).toBe(0);
  });
});
