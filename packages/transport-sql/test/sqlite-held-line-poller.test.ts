import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqlTransport } from '../src/index.js';
import { event, topology } from './fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'nimbus-held-line-poller-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('SQLite: work another process writes for a held session', () => {
  // Two transports on one file stand for two processes: each has its own connection and its own wake-ups, so
  // the publisher's write cannot wake the consumer directly. With the fallback poll at 5 s, only the held-line
  // poller can hand the message over quickly.
  it('is found by the held-line poller and handed to the waiting receive long before its own fallback poll', async () => {
    const path = join(dir, 'transport.db');
    const consumer = await createSqlTransport({ dialect: 'sqlite', path }, { pollIntervalMs: 5_000 });
    const publisher = await createSqlTransport({ dialect: 'sqlite', path });
    try {
      await consumer.applyTopology(topology);
      await publisher.publish([{ source: 'Crm', messages: [event('s1')] }]);
      const session = await consumer.acceptSession('Erp', { sessionId: 's1', waitMs: 1_000 });
      expect(session).not.toBeNull();
      expect(await session!.receive({ max: 10, waitMs: 0 })).toHaveLength(1);

      const receiving = session!.receive({ max: 10, waitMs: 4_000 });
      const startedAt = Date.now();
      setTimeout(() => void publisher.publish([{ source: 'Crm', messages: [event('s1', { n: 2 })] }]), 100);
      const received = await receiving;
      const waitedMs = Date.now() - startedAt;
      expect(received.map((m) => JSON.parse(m.body))).toEqual([{ n: 2 }]);
      expect(waitedMs).toBeLessThan(2_000);
      await session!.release();
    } finally {
      await publisher.close();
      await consumer.close();
    }
  });
});
