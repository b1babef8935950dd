import { mkdirSync } from 'node:fs';
import type { Transport } from '@nimbus/core';
import { createMemoryTransport } from '@nimbus/transport-memory';
import { createSqlTransport } from '@nimbus/transport-sql';
import type { NimbusConfig } from '../config.js';
import { CliError } from '../exit-codes.js';
import { openServiceBusTransport, type ServiceBusConnection } from './open-servicebus-transport.js';

/**
 * Opens the configured transport: a SQLite file shared by every process on this machine, PostgreSQL, memory,
 * or Azure Service Bus (see open-servicebus-transport.ts).
 */
export async function openTransport(
  config: NimbusConfig,
  serviceBus: Omit<ServiceBusConnection, 'connectionString'> = {},
): Promise<Transport> {
  try {
    if (config.transport === 'memory') return createMemoryTransport();
    if (config.transport === 'servicebus') {
      return await openServiceBusTransport({
        ...serviceBus,
        connectionString: config.servicebusConnectionString,
      });
    }
    if (config.transport === 'sqlite') {
      mkdirSync(config.dataDir, { recursive: true });
      return await createSqlTransport({ dialect: 'sqlite', path: config.transportSqlitePath });
    }
    return await createSqlTransport({ dialect: 'postgres', connectionString: config.postgresUrl ?? '' });
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`Could not open the ${config.transport} transport: ${(error as Error).message}`);
  }
}
