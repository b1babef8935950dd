import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CliDaemon, cleanEnv } from './support/cli-process.js';

const HOST = fileURLToPath(new URL('./support/slow-handler-host.mjs', import.meta.url));

describe('SIGTERM during a slow handler (an endpoint host as its own OS process, SQLite)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'nimbus-drain-'));
  const env = (extra: Record<string, string>) =>
    cleanEnv({ NIMBUS_TEST_TRANSPORT_PATH: join(dataDir, 'transport.db'), ...extra });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('aborts the handler signal, exits 0 within the drain timeout, and the message is handled after a restart', {
    timeout: 60_000,
  }, async () => {
    const slow = new CliDaemon(
      [],
      env({
        NIMBUS_TEST_HANDLER_MS: '600000',
        NIMBUS_TEST_DRAIN_MS: '2000',
        NIMBUS_TEST_PUBLISH_ORDER: 'O-1',
      }),
      HOST,
    );
    await slow.waitFor(/handler started O-1 delivery 1/, 20_000);
    const sent = Date.now();
    slow.child.kill('SIGTERM');
    expect(await slow.exited).toBe(0);
    const took = Date.now() - sent;
    expect(took).toBeLessThan(2_000 + 1_000);
    expect(slow.stdout).toMatch(
      /signal aborted O-1: shutdown \(the host is stopping and its 2000 ms drain timeout/,
    );
    expect(slow.stdout).toMatch(/host stopped after \d+ ms/);
    expect(slow.stdout).not.toContain('handled O-1');

    // Nothing lost: the abandoned order is delivered again to the next host and handled.
    const next = new CliDaemon([], env({ NIMBUS_TEST_HANDLER_MS: '0' }), HOST);
    await next.waitFor(/handled O-1/, 20_000);
    expect(next.stdout).toMatch(/handler started O-1 delivery [2-9]/);
    next.child.kill('SIGTERM');
    expect(await next.exited).toBe(0);
  });

  it('a handler that finishes within the drain timeout completes before the process exits', {
    timeout: 60_000,
  }, async () => {
    const host = new CliDaemon(
      [],
      env({ NIMBUS_TEST_HANDLER_MS: '800', NIMBUS_TEST_DRAIN_MS: '10000', NIMBUS_TEST_PUBLISH_ORDER: 'O-2' }),
      HOST,
    );
    await host.waitFor(/handler started O-2/, 20_000);
    host.child.kill('SIGTERM');
    expect(await host.exited).toBe(0);
    expect(host.stdout).toContain('handled O-2');
    expect(host.stdout).not.toContain('signal aborted');
  });

  it('a handler running past handlerTimeoutMs has its signal aborted and the message is delivered again', {
    timeout: 60_000,
  }, async () => {
    const host = new CliDaemon(
      [],
      env({
        NIMBUS_TEST_HANDLER_MS: '600000',
        NIMBUS_TEST_HANDLER_TIMEOUT_MS: '300',
        NIMBUS_TEST_PUBLISH_ORDER: 'O-3',
      }),
      HOST,
    );
    await host.waitFor(/handler started O-3 delivery 2/, 20_000);
    expect(host.stdout).toMatch(/signal aborted O-3: timeout \(the handler took longer than 300 ms\)/);
    host.child.kill('SIGTERM');
    expect(await host.exited).toBe(0);
  });
});
