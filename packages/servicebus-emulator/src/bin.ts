#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { startEmulator } from './start.js';

const USAGE = `usage: nimbus-sb-emulator --port <port> [--host 127.0.0.1] [--ca-file <path>] [--journal <path>] [--tier standard|premium]
  Serves a loopback Service Bus namespace (AMQP 1.0 and the https management API on one port) and prints its
  connection string. The shared access key comes from NIMBUS_SB_EMULATOR_KEY or is generated (never from argv).`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      'ca-file': { type: 'string' },
      journal: { type: 'string' },
      tier: { type: 'string', default: 'standard' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = Number(values.port);
  if (values.port === undefined || !Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`nimbus-sb-emulator: --port is required (0-65535)\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  if (values.tier !== 'standard' && values.tier !== 'premium') {
    console.error(`nimbus-sb-emulator: --tier is 'standard' or 'premium', got '${values.tier}'\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  const emulator = await startEmulator({
    tier: values.tier,
    port,
    host: values.host,
    sharedAccessKey: process.env.NIMBUS_SB_EMULATOR_KEY,
    journalPath: values.journal,
    managementApi: values['ca-file'] ? { caPath: values['ca-file'] } : {},
    log: (line) => console.error(`nimbus-sb-emulator: ${line}`),
  });
  console.log(emulator.connectionString);
  if (values['ca-file'])
    console.error(`nimbus-sb-emulator: CA written to ${values['ca-file']} (use NODE_EXTRA_CA_CERTS)`);
  else console.error(`nimbus-sb-emulator: management API CA:\n${emulator.caPem}`);
  const stop = async () => {
    await emulator.stop();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(`nimbus-sb-emulator: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
