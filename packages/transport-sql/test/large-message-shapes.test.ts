import { InProcessStateChangeNotifier, ResolutionStatus } from '@nimbus/message-store';
import { Bus, CONSUMER, type Payload } from '@nimbus/resolver/e2e';
import {
  createTemporaryDatabase,
  shouldRunPostgresSuite,
  type TemporaryDatabase,
} from '@nimbus/testing/postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresPlacement, type Shape, shapes, sqlitePlacement } from './colocated-fixtures.js';

const runPg = await shouldRunPostgresSuite('a 900 KB event ends in the store as the transport settled it');

/** ~900 KB of payload: under the SQL transport's 1 MiB budget alone, over it twice (a retry's effects). */
const BLOB = 'x'.repeat(900 * 1024);

/**
 * #26: a 900 KB event used to end Pending in the store while the transport dead-lettered it (SettlementRefused:
 * a failed attempt's effects, the Resolver's ErrorResponse and the scheduled RetryRequest, each carrying the
 * payload, exceed the 1 MiB budget together). On a real SQL store and transport, in both shapes (the store
 * co-located with the transport, which projects the outcome in its own transaction, and apart, every copy
 * through the Resolver): the store ends as the transport settled it — Completed when the settlement fits,
 * DeadLettered naming the size when it does not — never Pending.
 */
async function runLarge(shape: Shape, place: (shape: Shape) => ReturnType<typeof sqlitePlacement>) {
  const s = shapes(shape, place);
  const store = await s.openStore();
  const notifier = new InProcessStateChangeNotifier();
  const fixture = await s.openTransport(notifier);
  try {
    const bus = await new Bus(store, fixture, notifier).start();
    const big = (id: string, mode: Payload['mode']): Payload => ({ id, mode, blob: BLOB }) as Payload;
    await bus.publish(big('big-ok', 'ok'), `${bus.session}-ok`);
    await bus.publish(big('big-flaky', 'flaky'), `${bus.session}-flaky`);
    await bus.pump();
    const rowOf = async (id: string) => {
      const row = await store.getEvent({ endpointId: CONSUMER, eventId: bus.eventIds.get(id) ?? '' });
      if (!row) throw new Error(`${shape}: no row for ${id}`);
      return row;
    };
    const ok = await rowOf('big-ok');
    const flaky = await rowOf('big-flaky');
    const dead = await fixture.transport.peekDeadLetters(CONSUMER, 10);
    return { ok, flaky, dead, counts: await fixture.transport.counts(CONSUMER) };
  } finally {
    await fixture.transport.close();
    await fixture.cleanup();
  }
}

function expectSettledAsTheTransport(outcome: Awaited<ReturnType<typeof runLarge>>) {
  const { ok, flaky, dead, counts } = outcome;
  expect(ok.resolutionStatus).toBe(ResolutionStatus.Completed);
  // The transport dead-lettered the flaky one; the store says so, with the size, and not Pending.
  expect(dead.map((d) => d.reason)).toEqual(['SettlementRefused']);
  expect(counts).toMatchObject({ active: 0, deadLettered: 1 });
  expect(flaky.resolutionStatus).toBe(ResolutionStatus.DeadLettered);
  expect(flaky.deadLetterReason).toBe('SettlementRefused');
  expect(flaky.deadLetterErrorDescription).toMatch(/\d+ bytes exceeds maxBatchBytes \(1048576\)/);
  expect(flaky.deadLetterErrorDescription).toMatch(/the message is 92\d{4} bytes/);
}

describe('a 900 KB event ends in the store as the transport settled it', () => {
  for (const shape of ['colocated', 'apart'] as const)
    it(`SQLite, ${shape}`, { timeout: 120_000 }, async () => {
      expectSettledAsTheTransport(await runLarge(shape, sqlitePlacement));
    });

  describe.runIf(runPg)('PostgreSQL', () => {
    let bus: TemporaryDatabase;
    let storeOnly: TemporaryDatabase;
    beforeAll(async () => {
      bus = await createTemporaryDatabase('nimbus_large_bus');
      storeOnly = await createTemporaryDatabase('nimbus_large_store');
    });
    afterAll(async () => {
      await bus?.drop();
      await storeOnly?.drop();
    });
    for (const shape of ['colocated', 'apart'] as const)
      it(`PostgreSQL, ${shape}`, { timeout: 120_000 }, async () => {
        const place = (s: Shape) => postgresPlacement(bus.url, storeOnly.url)(s);
        expectSettledAsTheTransport(await runLarge(shape, place));
      });
  });
});
