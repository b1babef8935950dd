import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  createTemporaryDatabase,
  shouldRunPostgresSuite,
  type TemporaryDatabase,
} from '@nimbus/testing/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AlertStore, AlertTrigger, createMemoryAlertStore, createSqlAlertStore } from '../src/index.js';

const T0 = Date.parse('2026-06-01T10:00:00Z');
const delivery = (id: string, subscriptionId = 'sub-1', alertKey = 'key-1') => ({
  id,
  subscriptionId,
  alertKey,
  trigger: AlertTrigger.NewFailureGroup,
  endpointId: 'Erp',
  payloadJson: '{"summary":"s"}',
  createdAt: T0,
});

/** The claims every alert store makes atomic, run against two handles on one store where the store is shared. */
function describeAlertStore(name: string, open: () => Promise<[AlertStore, AlertStore]>) {
  describe(`alert store (${name})`, () => {
    it('raises one delivery per (subscription, alert key), whoever claims it and however often', async () => {
      const [a, b] = await open();
      const claims = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).claimDelivery(delivery(`d-${i}`))),
      );
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await a.claimDelivery(delivery('other', 'sub-2'))).toBe(true);
      expect(await a.listDeliveries('sub-1', 10)).toHaveLength(1);
      await a.close();
      await b.close();
    });

    it('gives every caller the same episode start, and a new one after the signature was quiet', async () => {
      const [a, b] = await open();
      const quiet = 60_000;
      const starts = await Promise.all([
        a.touchSignature('Erp', 'Error: x <n>', T0, quiet),
        b.touchSignature('Erp', 'Error: x <n>', T0 + 5, quiet),
        a.touchSignature('Erp', 'Error: x <n>', T0 + 10, quiet),
      ]);
      expect(new Set(starts).size).toBe(1);
      expect(await b.touchSignature('Erp', 'Error: x <n>', T0 + 30_000, quiet)).toBe(starts[0]);
      const revived = await Promise.all([
        a.touchSignature('Erp', 'Error: x <n>', T0 + 200_000, quiet),
        b.touchSignature('Erp', 'Error: x <n>', T0 + 200_001, quiet),
      ]);
      expect(revived[0]).toBe(revived[1]);
      expect(revived[0]).toBeGreaterThanOrEqual(T0 + 200_000);
      expect(await a.touchSignature('Crm', 'Error: x <n>', T0, quiet)).toBe(T0);
      await a.close();
      await b.close();
    });

    it('leases each due delivery to one caller and keeps every attempt', async () => {
      const [a, b] = await open();
      for (let i = 0; i < 6; i++) await a.claimDelivery(delivery(`l-${i}`, 'sub-l', `k-${i}`));
      const [first, second] = await Promise.all([
        a.leaseDue('a', T0, 30_000, 10),
        b.leaseDue('b', T0, 30_000, 10),
      ]);
      const ids = [...first!, ...second!].map((d) => d.id).sort();
      expect(ids).toEqual(['l-0', 'l-1', 'l-2', 'l-3', 'l-4', 'l-5']);
      expect(await a.leaseDue('a', T0 + 1, 30_000, 10)).toEqual([]);
      await a.recordAttempt(
        { deliveryId: 'l-0', attempt: 1, at: T0, ok: false, error: 'HTTP 500', durationMs: 3 },
        { status: 'Retrying', nextAttemptAt: T0 + 1_000, deliveredAt: null },
      );
      expect((await b.leaseDue('b', T0 + 999, 30_000, 10)).map((d) => d.id)).toEqual([]);
      expect((await b.leaseDue('b', T0 + 1_000, 30_000, 10)).map((d) => d.id)).toEqual(['l-0']);
      await b.recordAttempt(
        { deliveryId: 'l-0', attempt: 2, at: T0 + 1_000, ok: true, error: null, durationMs: 4 },
        { status: 'Delivered', nextAttemptAt: T0 + 1_000, deliveredAt: T0 + 1_004 },
      );
      const listed = (await a.listDeliveries('sub-l', 10)).find((d) => d.delivery.id === 'l-0')!;
      expect(listed.delivery).toMatchObject({
        status: 'Delivered',
        attempts: 2,
        lastError: null,
        deliveredAt: T0 + 1_004,
      });
      expect(listed.attempts.map((x) => [x.attempt, x.ok, x.error])).toEqual([
        [1, false, 'HTTP 500'],
        [2, true, null],
      ]);
      await a.prune(T0 + 1);
      expect((await a.listDeliveries('sub-l', 10)).map((d) => d.delivery.id)).not.toContain('l-0');
      await a.close();
      await b.close();
    });

    it('moves a thread only from the sequence it had: one of two racing writers wins', async () => {
      const [a, b] = await open();
      const thread = (sequence: number, by: string) => ({
        subscriptionId: 'sub-t',
        threadKey: 'failure-group:Erp:Error: x <n>',
        endpointId: 'Erp',
        sequence,
        openedAt: T0,
        lastSentAt: T0 + sequence,
        snapshotJson: JSON.stringify({ by }),
        resolvedAt: null,
      });
      const opened = await Promise.all([a.saveThread(thread(1, 'a'), 0), b.saveThread(thread(1, 'b'), 0)]);
      expect(opened.filter(Boolean)).toHaveLength(1);
      const updated = await Promise.all([a.saveThread(thread(2, 'a'), 1), b.saveThread(thread(2, 'b'), 1)]);
      expect(updated.filter(Boolean)).toHaveLength(1);
      expect(await a.saveThread(thread(3, 'a'), 1)).toBe(false);
      const [stored] = await b.listThreads();
      expect(stored).toMatchObject({ sequence: 2, lastSentAt: T0 + 2, resolvedAt: null });
      await a.saveThread({ ...thread(3, 'a'), resolvedAt: T0 + 3 }, 2);
      await b.pruneThreads(T0 + 4);
      expect(await a.listThreads()).toEqual([]);
      await a.close();
      await b.close();
    });

    it("counts a subscription's deliveries in the rate-limit window (tests excluded) and keeps snoozes", async () => {
      const [a, b] = await open();
      await a.claimDelivery({ ...delivery('w-1', 'sub-w', 'k1'), createdAt: T0 - 10 });
      await a.claimDelivery({ ...delivery('w-2', 'sub-w', 'k2'), createdAt: T0 + 10 });
      await b.claimDelivery({
        ...delivery('w-3', 'sub-w', 'k3'),
        trigger: AlertTrigger.Test,
        createdAt: T0 + 20,
      });
      expect(await b.countDeliveriesSince('sub-w', T0)).toBe(1);
      const snooze = {
        endpointId: 'Erp',
        signature: 'Error: x <n>',
        until: T0 + 1_000,
        by: 'ops',
        comment: null,
        createdAt: T0,
      };
      await a.snooze(snooze);
      await b.snooze({ ...snooze, until: T0 + 2_000, comment: 'longer' });
      expect(await a.listSnoozes(T0)).toEqual([{ ...snooze, until: T0 + 2_000, comment: 'longer' }]);
      expect(await a.listSnoozes(T0 + 2_000)).toEqual([]);
      expect(await b.unsnooze('Erp', 'Error: x <n>')).toBe(true);
      expect(await a.unsnooze('Erp', 'Error: x <n>')).toBe(false);
      await a.close();
      await b.close();
    });
  });
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-alert-store-'));
let n = 0;
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describeAlertStore('memory', async () => {
  const store = createMemoryAlertStore();
  return [store, store];
});
describeAlertStore('SQLite, two handles on one file', async () => {
  const filename = path.join(dir, `alerts-${n++}.db`);
  const a = createSqlAlertStore({ dialect: 'sqlite', filename });
  const b = createSqlAlertStore({ dialect: 'sqlite', filename });
  await a.initialize();
  await b.initialize();
  return [a, b];
});

const runPg = await shouldRunPostgresSuite('webapp alert store (PostgreSQL)');
describe.runIf(runPg)('PostgreSQL', () => {
  let database: TemporaryDatabase;
  beforeAll(async () => {
    database = await createTemporaryDatabase('nimbus_alerts');
  });
  afterAll(async () => {
    await database?.drop();
  });
  describeAlertStore('PostgreSQL, two pools', async () => {
    const schema = `alerts_${n++}`;
    const a = createSqlAlertStore({ dialect: 'postgres', connectionString: database.url, schema });
    const b = createSqlAlertStore({ dialect: 'postgres', connectionString: database.url, schema });
    await Promise.all([a.initialize(), b.initialize()]);
    return [a, b];
  });
});
