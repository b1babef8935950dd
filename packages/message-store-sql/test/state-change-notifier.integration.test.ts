import { silentLogger } from '@nimbus/core';
import type { StateChange } from '@nimbus/message-store';
import {
  createTemporaryDatabase,
  shouldRunPostgresSuite,
  type TemporaryDatabase,
} from '@nimbus/testing/postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqlStateChangeNotifier, type SqlStateChangeNotifier } from '../src/index.js';

const runPg = await shouldRunPostgresSuite('message-store-sql state-change notifier (PostgreSQL)');

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.runIf(runPg)('PostgreSQL LISTEN/NOTIFY state-change notifier', () => {
  let database: TemporaryDatabase;
  const notifiers: SqlStateChangeNotifier[] = [];
  beforeAll(async () => {
    database = await createTemporaryDatabase('nimbus_notify');
  });
  afterAll(async () => {
    for (const notifier of notifiers) await notifier.stop();
    await database?.drop();
  });

  const open = async (schema = 'nimbus') => {
    const notifier = await createSqlStateChangeNotifier({
      dialect: 'postgres',
      connectionString: database.url,
      schema,
      logger: silentLogger,
      env: {},
    });
    notifiers.push(notifier);
    return notifier;
  };

  it('delivers ids across connections, only within one schema, and resyncs after its connection is killed', {
    timeout: 30_000,
  }, async () => {
    const writer = await open();
    const reader = await open();
    const otherSchema = await open('other');
    const heard: StateChange[] = [];
    const heardElsewhere: StateChange[] = [];
    reader.subscribe((change) => void heard.push(change));
    otherSchema.subscribe((change) => void heardElsewhere.push(change));

    await writer.notify({ kind: 'endpoint', endpointId: 'Erp' });
    await writer.notify({ kind: 'endpoint', endpointId: 'Erp' });
    await writer.notify({ kind: 'serviceHealth', serviceId: 'Resolver' });
    await writer.flush();
    await until(() => heard.length >= 2);
    expect(heard).toEqual([
      { kind: 'endpoint', endpointId: 'Erp' },
      { kind: 'serviceHealth', serviceId: 'Resolver' },
    ]);

    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      const killed = await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
          where datname = current_database() and application_name = 'nimbus-state-changes' and pid <> pg_backend_pid()`,
      );
      expect(killed.rowCount).toBeGreaterThanOrEqual(3);
    } finally {
      await admin.end();
    }
    heard.length = 0;
    await until(() => heard.some((change) => change.kind === 'resync'));
    expect(reader.listening).toBe(true);

    // The writer's pool lost its connection too; its next send reconnects.
    heard.length = 0;
    await writer.notify({ kind: 'endpoint', endpointId: 'Crm' });
    await writer.flush();
    await until(() => heard.some((change) => change.kind === 'endpoint'));
    expect(heard.filter((change) => change.kind !== 'resync')).toEqual([
      { kind: 'endpoint', endpointId: 'Crm' },
    ]);
    expect(heardElsewhere.filter((change) => change.kind !== 'resync')).toEqual([]);
  });
});
