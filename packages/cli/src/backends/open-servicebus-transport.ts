import { readFileSync } from 'node:fs';
import type { Transport } from '@nimbus/core';
import { CliError } from '../exit-codes.js';
import { importDevTool } from './import-dev-tool.js';

/** Where `--transport servicebus` finds its namespace (the environment only: a connection string holds a key). */
export const SERVICEBUS_ENV = {
  connectionString: 'NIMBUS_SERVICEBUS_CONNECTION_STRING',
  namespace: 'NIMBUS_SERVICEBUS_NAMESPACE',
  managementCaFile: 'NIMBUS_SERVICEBUS_CA_FILE',
} as const;

export interface ServiceBusConnection {
  /** From `--servicebus-connection-string` (emulator strings only) or the environment. */
  readonly connectionString?: string | null;
  readonly localEmulatorWhenUnconfigured?: boolean;
  readonly print?: (line: string) => void;
}

/** A connection string given on the command line may only name an emulator: its key is no secret. */
export function assertEmulatorConnectionString(value: string): void {
  if (
    !/;\s*UseDevelopmentEmulator=true\s*;?\s*$/i.test(value) &&
    !/UseDevelopmentEmulator=true;/i.test(value)
  ) {
    throw new CliError(
      `--servicebus-connection-string takes an emulator connection string (…;UseDevelopmentEmulator=true) only; put a real namespace's in ${SERVICEBUS_ENV.connectionString}, never on the command line.`,
    );
  }
}

/**
 * `--transport servicebus`: a connection string, or a namespace signed in with DefaultAzureCredential; with
 * neither, `nimbus dev` starts nimbus-sb-emulator in this process.
 */
export async function openServiceBusTransport(options: ServiceBusConnection): Promise<Transport> {
  const { ServiceBusTransport } = await importDevTool(
    () => import('@nimbus/transport-azure-service-bus'),
    '`--transport servicebus`',
    ['@nimbus/transport-azure-service-bus'],
    'provider',
  );
  const managementCaFile = process.env[SERVICEBUS_ENV.managementCaFile];
  const managementCa = managementCaFile ? readFileSync(managementCaFile, 'utf8') : undefined;
  const connectionString = options.connectionString ?? process.env[SERVICEBUS_ENV.connectionString];
  if (connectionString) return new ServiceBusTransport({ connectionString, managementCa });
  const namespace = process.env[SERVICEBUS_ENV.namespace];
  if (namespace) return new ServiceBusTransport({ namespace, managementCa });
  if (!options.localEmulatorWhenUnconfigured) {
    throw new CliError(
      `--transport servicebus needs ${SERVICEBUS_ENV.connectionString} or ${SERVICEBUS_ENV.namespace} (DefaultAzureCredential) in the environment; only \`nimbus dev\` starts the emulator without them.`,
    );
  }
  const { startEmulator } = await importDevTool(
    () => import('@nimbus/servicebus-emulator'),
    '`nimbus dev --transport servicebus` without a namespace',
    ['@nimbus/servicebus-emulator'],
  );
  const emulator = await startEmulator({ port: 0 });
  options.print?.(
    `Service Bus: no namespace configured, using nimbus-sb-emulator on 127.0.0.1:${emulator.port} (in this process, messages in memory: gone when dev stops)`,
  );
  const transport = new ServiceBusTransport({
    connectionString: emulator.connectionString,
    managementCa: emulator.caPem ?? undefined,
  });
  const close = transport.close.bind(transport);
  transport.close = async () => {
    await close();
    await emulator.stop();
  };
  return transport;
}
