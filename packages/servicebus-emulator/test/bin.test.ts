import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { ServiceBusClient } from '@azure/service-bus';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../src/bin.ts', import.meta.url));

function run(args: string[], env: Record<string, string> = {}) {
  return spawn(process.execPath, ['--conditions=source', '--import', 'tsx', BIN, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

describe('nimbus-sb-emulator bin', () => {
  it('prints a connection string with the key from the environment (never argv) and serves it', async () => {
    const child = run(['--port', '0'], { NIMBUS_SB_EMULATOR_KEY: 'from-env-key' });
    try {
      const [line] = (await once(child.stdout!, 'data')) as [Buffer];
      const connectionString = line.toString().trim();
      expect(connectionString).toMatch(
        /^Endpoint=sb:\/\/127\.0\.0\.1:\d+;.*SharedAccessKey=from-env-key;UseDevelopmentEmulator=true$/,
      );
      const client = new ServiceBusClient(connectionString);
      const failure = await client
        .createSender('none')
        .sendMessages({ body: 1 })
        .catch((e: unknown) => e);
      expect((failure as { code?: string }).code).toBe('MessagingEntityNotFound');
      await client.close();
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });

  it('refuses to start without --port', async () => {
    const child = run([]);
    const [code] = (await once(child, 'exit')) as [number];
    expect(code).toBe(2);
  });
});
