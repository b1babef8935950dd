import { MessageType } from '@nimbus/core';
import { InProcessStateChangeNotifier } from '@nimbus/message-store';
import { Bus, CONSUMER, type Payload } from '@nimbus/resolver/e2e';
import {
  createTemporaryDatabase,
  shouldRunPostgresSuite,
  type TemporaryDatabase,
} from '@nimbus/testing/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresPlacement, type Shape, shapes, sqlitePlacement } from './colocated-fixtures.js';

const runPg = await shouldRunPostgresSuite(
  'co-located and Resolver shapes give the same outcomes (PostgreSQL)',
);

const WORKLOAD: readonly Payload[] = [
  { id: 'ok-1', mode: 'ok' },
  { id: 'fail', mode: 'fail' },
  { id: 'behind-fail', mode: 'ok' },
  { id: 'handoff', mode: 'handoff' },
  { id: 'unsupported', mode: 'unsupported' },
  { id: 'poison', mode: 'poison' },
  { id: 'ok-2', mode: 'ok' },
];

/**
 * One workload on one bus: events on two sessions, an operator resubmit of the failed one (which replays the
 * event parked behind it) and a handoff completion. Returns, per payload, the row, the history and the audits
 * as the store shows them, and the endpoints the live notifications named — without ids and times, which
 * differ between runs by design.
 */
async function runWorkload(shape: Shape, place: (shape: Shape) => ReturnType<typeof sqlitePlacement>) {
  const s = shapes(shape, place);
  const store = await s.openStore();
  const notifier = new InProcessStateChangeNotifier();
  const fixture = await s.openTransport(notifier);
  try {
    const bus = await new Bus(store, fixture, notifier).start();
    for (const [n, payload] of WORKLOAD.entries())
      await bus.publish(payload, n < 3 ? bus.session : `${bus.session}-b`);
    await bus.pump();
    const rowOf = async (id: string) => {
      const row = await store.getEvent({ endpointId: CONSUMER, eventId: bus.eventIds.get(id) ?? '' });
      if (!row) throw new Error(`${shape}: no row for ${id}`);
      return row;
    };
    bus.healed.add('fail');
    const failed = await rowOf('fail');
    await bus.operator(MessageType.ResubmissionRequest, failed, failed.messageContent);
    const parked = await rowOf('handoff');
    await bus.operator(MessageType.HandoffCompletedRequest, parked, parked.messageContent);
    await bus.pump();
    const outcome: Record<string, unknown> = {};
    for (const { id } of WORKLOAD) {
      const row = await rowOf(id);
      outcome[id] = {
        status: row.resolutionStatus,
        messageType: row.messageType,
        reason: row.reason,
        deadLetterReason: row.deadLetterReason,
        pendingSubStatus: row.pendingSubStatus,
        history: (await store.getEventHistory(row.eventId)).map((m) => [m.messageType, m.from, m.to]),
        audits: (await store.getMessageAudits(row.eventId)).map((a) => [a.auditType, a.comment]),
      };
    }
    outcome.handled = bus.handled;
    outcome.notified = [...new Set(bus.changes.map((c) => JSON.stringify(c)))].sort();
    return outcome;
  } finally {
    await fixture.transport.close();
    await fixture.cleanup();
  }
}

describe('the same workload gives the same outcomes co-located and through the Resolver', () => {
  it('SQLite', { timeout: 120_000 }, async () => {
    const colocated = await runWorkload('colocated', sqlitePlacement);
    const throughResolver = await runWorkload('apart', sqlitePlacement);
    expect(colocated).toEqual(throughResolver);
  });

  describe.runIf(runPg)('PostgreSQL', () => {
    let bus: TemporaryDatabase;
    let storeOnly: TemporaryDatabase;
    beforeAll(async () => {
      bus = await createTemporaryDatabase('nimbus_same_bus');
      storeOnly = await createTemporaryDatabase('nimbus_same_store');
    });
    afterAll(async () => {
      await bus?.drop();
      await storeOnly?.drop();
    });
    it('PostgreSQL', { timeout: 120_000 }, async () => {
      const place = (shape: Shape) => postgresPlacement(bus.url, storeOnly.url)(shape);
      const colocated = await runWorkload('colocated', place);
      const throughResolver = await runWorkload('apart', place);
      expect(colocated).toEqual(throughResolver);
    });
  });
});
