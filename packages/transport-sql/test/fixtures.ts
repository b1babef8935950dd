import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Header, MessageType, type Topology, type TransportMessage, uuidv7 } from '@nimbus/core';
import { createSqlTransport, type SqlTransport, type SqlTransportOptions } from '../src/index.js';

export const topology: Topology = {
  endpoints: ['Crm', 'Erp'],
  routes: [{ source: 'Crm', eventTypeId: 'CustomerChanged', target: 'Erp' }],
};

export function event(
  sessionId: string,
  body: unknown = {},
  eventTypeId = 'CustomerChanged',
): TransportMessage {
  return {
    messageId: uuidv7(),
    sessionId,
    correlationId: `corr-${sessionId}`,
    headers: {
      [Header.To]: eventTypeId,
      [Header.EventTypeId]: eventTypeId,
      [Header.MessageType]: MessageType.EventRequest,
    },
    body: JSON.stringify(body),
  };
}

/** A message sent straight to an input (`To` = source: replays and operator requests take this route). */
export function direct(to: string, sessionId: string, body: unknown = {}): TransportMessage {
  return {
    ...event(sessionId, body),
    headers: { [Header.To]: to, [Header.MessageType]: MessageType.EventRequest },
  };
}

export interface SqliteFixture {
  readonly dir: string;
  readonly path: string;
  open(options?: SqlTransportOptions): Promise<SqlTransport>;
  cleanup(): Promise<void>;
}

export function sqliteFixture(): SqliteFixture {
  const dir = mkdtempSync(join(tmpdir(), 'nimbus-transport-sql-'));
  const path = join(dir, 'transport.db');
  const opened: SqlTransport[] = [];
  return {
    dir,
    path,
    async open(options) {
      const transport = await createSqlTransport({ dialect: 'sqlite', path }, options);
      opened.push(transport);
      return transport;
    },
    async cleanup() {
      for (const transport of opened) await transport.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
