import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEnvelope, encodeEnvelope, MessageType, uuidv7 } from '@nimbus/core';
import { createSqlColocatedProjection, createSqlMessageStore } from '@nimbus/message-store-sql';
import {
  createTemporaryDatabase,
  shouldRunPostgresSuite,
  type TemporaryDatabase,
} from '@nimbus/testing/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqlTransport } from '../src/index.js';
import { crashConnections } from './colocated-crash/connections.js';

const ENDPOINT = fileURLToPath(new URL('./colocated-crash/endpoint.ts', import.meta.url));
const runPg = await shouldRunPostgresSuite('co-located crash on PostgreSQL');

async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function startEndpoint(env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--conditions=source', '--import', 'tsx', ENDPOINT], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

const killed = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });

/**
 * The co-located shape settles a handled message and writes its Completed row in ONE transaction: an endpoint
 * process SIGKILLed inside that transaction, after the row was written and before the commit, leaves the row
 * Pending and the message unsettled; the next process handles it again and completes it, once.
 */
async function crashBetweenHandlerAndSettlement(env: Record<string, string>, dir: string) {
  const { store: storeOptions, transport: connection } = crashConnections(env);
  const store = await createSqlMessageStore({ ...storeOptions, retentionSweep: false, env: {} });
  const projection = createSqlColocatedProjection({ ...storeOptions, env: {} });
  const transport = await createSqlTransport(connection, { projection });
  try {
    await transport.applyTopology({
      endpoints: ['Crm', 'Billing'],
      routes: [{ source: 'Crm', eventTypeId: 'Crm.CustomerChanged', target: 'Billing' }],
    });
    const envelope = createEnvelope({
      messageId: uuidv7(),
      to: 'Crm.CustomerChanged',
      sessionId: 'customer-1',
      correlationId: 'corr-1',
      messageType: MessageType.EventRequest,
      originatingFrom: 'Crm',
      content: {
        eventContent: { eventTypeId: 'Crm.CustomerChanged', eventJson: '{"id":1}' },
        errorContent: null,
      },
    });
    await transport.publish([{ source: 'Crm', messages: [encodeEnvelope(envelope)] }]);
    const counts = () => store.downloadEndpointStateCount('Billing');
    // The publish transaction wrote the subscriber's Pending row; nothing went to the Resolver.
    expect(await counts()).toMatchObject({ pendingCount: 1 });
    expect(await transport.counts('Resolver')).toMatchObject({ active: 0 });

    const marker = join(dir, 'crash.log');
    const hanging = startEndpoint({ ...env, HANG: '1', MARKER_FILE: marker });
    const wrote = () => existsSync(marker) && readFileSync(marker, 'utf8').includes('open transaction');
    await until(wrote, 45_000, 'the endpoint to write its Completed row inside the settlement');
    hanging.kill('SIGKILL');
    await killed(hanging);

    // Neither a Completed row nor a settled message.
    expect(await counts()).toMatchObject({ pendingCount: 1 });
    const [row] = (await store.getEventsByFilter({ filter: { endpointId: 'Billing' }, maxItems: 10 })).events;
    expect(row?.resolutionStatus).toBe('Pending');
    expect(await transport.counts('Billing')).toMatchObject({ active: 1 });

    const marker2 = join(dir, 'recover.log');
    const recovering = startEndpoint({ ...env, HANG: '0', MARKER_FILE: marker2 });
    try {
      await until(async () => (await counts()).pendingCount === 0, 60_000, 'the redelivered message');
      const history = await store.getEventHistory(row!.eventId);
      expect(history.map((h) => h.messageType)).toEqual([
        MessageType.EventRequest,
        MessageType.ResolutionResponse,
      ]);
      await until(async () => (await transport.counts('Billing')).active === 0, 30_000, 'settlement');
    } finally {
      recovering.kill('SIGKILL');
      await killed(recovering);
    }
  } finally {
    await transport.close();
    await store.close();
  }
}

describe('co-located store: a crash between handler and settlement', () => {
  it('SQLite: leaves neither a Completed row nor a settled message', { timeout: 150_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nimbus-colocated-crash-'));
    try {
      await crashBetweenHandlerAndSettlement({ DIALECT: 'sqlite', DATABASE_PATH: join(dir, 'bus.db') }, dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe.runIf(runPg)('PostgreSQL', () => {
    let database: TemporaryDatabase;
    beforeAll(async () => {
      database = await createTemporaryDatabase('nimbus_colocated_crash');
    });
    afterAll(async () => {
      await database?.drop();
    });
    it('leaves neither a Completed row nor a settled message', { timeout: 150_000 }, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'nimbus-colocated-crash-'));
      try {
        await crashBetweenHandlerAndSettlement({ DIALECT: 'postgres', DATABASE_URL: database.url }, dir);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});
